// The definition checks of one prop, as a component declares it: the rules every kind shares
// (propDefinition, type, default, options, secret, bounds), then its kind's own (prop-kinds.ts).
import type { ComponentProblem, PropShape } from '../contract/component-shape';
import { kindOf, propTypes } from './prop-kinds';
import { checkSecret } from './secret/secret-rule';
import type { Report } from './shared/kind-interface';
import { isRecord } from './shared/prop-shape';
import { expectedValue, matchesType, showValue, staticValueProblem } from './shared/prop-values';
import { checkBounds } from './user-input/integer-bounds';

/** What a check found: errors (the component cannot run) and warnings (it runs; a rule of the spec or the registry is not followed). */
export interface Findings {
  errors: ComponentProblem[];
  warnings: ComponentProblem[];
}

/** Where a prop is checked: the component's type (null when that type is itself invalid) and whether it came from `additionalProps`. */
export interface PropContext {
  componentType: 'source' | 'action' | null;
  dynamic: boolean;
}

/** Reports a broken `propDefinition`; returns true when it is broken (the prop then has no inherited type). */
function checkPropDefinition(prop: PropShape, report: Report): boolean {
  const def = prop.propDefinition;
  if (!def) return false;
  if (def.app === null) {
    report('propDefinition', 'the first element of propDefinition must be an app object; import the app file and use propDefinition: [app, "<name>"]');
    return true;
  }
  if (def.resolved) return false;
  report(
    'propDefinition',
    typeof def.name === 'string' ? `app "${def.app}" has no propDefinition "${def.name}"; fix the name or add "${def.name}" to the app's propDefinitions` : `the second element of propDefinition must be the name of one of app "${def.app}"'s propDefinitions, not ${showValue(def.name)}`,
  );
  return true;
}

function unknownTypeMessage(type: string): string {
  const known = propTypes();
  const base = type.slice(0, -2);
  if (type.endsWith('[]') && known.includes(base)) {
    return `type "${type}" has no array form (only ${known.filter((t) => t.endsWith('[]')).join(', ')} exist); use "${base}" or one of those`;
  }
  const near = known.find((t) => t.toLowerCase() === type.toLowerCase());
  return near ? `"${type}" is not a prop type; did you mean "${near}"?` : `"${type}" is not a prop type; use one of ${known.join(', ')}`;
}

/** Checks the prop's type against the kinds and where it is used; returns the type when its values are checked. */
function checkType(prop: PropShape, context: PropContext, brokenDefinition: boolean, report: Report): string | null {
  const type = prop.type;
  if (typeof type !== 'string' || type === '') {
    // With a broken propDefinition the type was never inherited; that problem is already reported.
    if (!brokenDefinition) report('type', `type is required; set it to one of ${propTypes().join(', ')}`);
    return null;
  }
  const kind = kindOf(type);
  if (!kind) {
    report('type', unknownTypeMessage(type));
    return null;
  }
  if (kind.typeNote) report('type', kind.typeNote(type), 'warning');
  if (kind.unchecked) return null;
  if (kind.onlyIn && context.componentType && kind.onlyIn !== context.componentType) {
    const where = `${context.componentType === 'action' ? 'an' : 'a'} ${context.componentType}`;
    report('type', `${type} props belong in ${kind.onlyIn}s; in ${where} ${kind.elsewhere ?? 'it is ignored (remove it)'}`, 'warning');
  }
  if (context.dynamic && !kind.dynamic) {
    report('type', `${type} props are not among the types additionalProps may return; declare the prop in props instead`, 'warning');
  }
  return type;
}

/** Checks `default` rules that hold whatever the prop's type is. */
function checkDefaultPresence(prop: PropShape, type: string | null, report: Report): void {
  if (prop.default === undefined) return;
  const tooBig = staticValueProblem(prop.default);
  if (tooBig) report('default', `default ${tooBig}`);
  if (!prop.optional && !(type && kindOf(type)?.defaultIsConfig)) {
    // Pipedream shows it as the prefilled value; the spec allows it only on optional props.
    report('default', 'default is allowed only on optional props; it is used as the prefilled value: add optional: true or remove default', 'warning');
  }
}

/** A label as the registry writes them: text, or a number or boolean shown as text. */
const isLabel = (label: unknown) => typeof label === 'string' || typeof label === 'number' || typeof label === 'boolean';

function isOption(itemType: string, option: unknown): boolean {
  if (isRecord(option) && 'label' in option && 'value' in option) {
    return isLabel(option.label) && matchesType(itemType, option.value);
  }
  return matchesType(itemType, option);
}

function checkOptions(prop: PropShape, type: string | null, report: Report): void {
  if (prop.useQuery === true && !prop.hasOptionsMethod) {
    report('useQuery', 'useQuery needs an async options method; define options({ query }) or remove useQuery');
  }
  if (prop.options === undefined) return;
  if (!Array.isArray(prop.options)) {
    report('options', `options must be an array or an async options method, not ${showValue(prop.options)}`);
    return;
  }
  if (!type) return;
  const itemType = type.endsWith('[]') ? type.slice(0, -2) : type;
  const bad = prop.options.flatMap((option, index) => (isOption(itemType, option) ? [] : [index]));
  if (bad.length === 0) return;
  const which = bad.length === 1 ? `option ${bad[0]}` : `options ${bad.join(', ')}`;
  const item = expectedValue(itemType);
  report('options', `${which} must be ${item} or a { label, value } object with a text (or number) label and ${item} value`);
}

/** Adds every finding of one prop to `into`, with paths `props.<name>.<field>`. */
export function propFindings(name: string, prop: PropShape, context: PropContext, into: Findings): void {
  const report: Report = (field, message, level) => (level === 'warning' ? into.warnings : into.errors).push({ path: `props.${name}.${field}`, message: `prop \`${name}\`: ${message}` });
  const brokenDefinition = checkPropDefinition(prop, report);
  const type = checkType(prop, context, brokenDefinition, report);
  checkDefaultPresence(prop, type, report);
  checkOptions(prop, type, report);
  if (!type) return;
  checkSecret(prop, type, report);
  checkBounds(prop, type, report);
  kindOf(type)?.checkDefinition?.(prop, type, report);
}
