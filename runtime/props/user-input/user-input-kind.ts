// Props whose value the user enters: boolean, integer and string (each with an array form), object
// and any. `this.<prop>` is the configured value, else the default.
import type { ConfigurableProp } from '../../contract/component-shape';
import type { PropKind } from '../shared/kind-interface';
import { enteredValue, expectedValue, matchesType, showValue } from '../shared/prop-values';
import { boundsProblem } from './integer-bounds';

/** Why a configured value is not one of the prop's type (or is outside its bounds); null when it is fine. */
function typeProblem(prop: ConfigurableProp, value: unknown): string | null {
  if (matchesType(prop.type, value)) return boundsProblem(prop, value);
  if (prop.type.endsWith('[]')) {
    const item = prop.type.slice(0, -2);
    if (!Array.isArray(value)) return `must be an array of ${item}s`;
    const bad = value.findIndex((v) => !matchesType(item, v));
    return `item ${bad} must be ${expectedValue(item)}`;
  }
  return `must be ${expectedValue(prop.type)}, not ${JSON.stringify(value)}`;
}

/** The user-input types. */
export const userInputKind: PropKind = {
  name: 'user-input',
  types: ['boolean', 'boolean[]', 'integer', 'integer[]', 'string', 'string[]', 'object', 'any'],
  dynamic: true,
  labeled: true,
  checkDefinition(prop, type, report) {
    if (prop.default === undefined || matchesType(type, prop.default)) return;
    report('default', `default must be ${expectedValue(type)} to match type ${type}, not ${showValue(prop.default)}`);
  },
  checkValue: (prop, value) => enteredValue(prop, value, (v) => typeProblem(prop, v)),
  askFor: (prop) => (prop.type === 'boolean' ? 'choose a value' : undefined),
};
