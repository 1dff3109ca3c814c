// `min` and `max`: bounds of an integer prop, and of each item of an integer[].
import type { ConfigurableProp, PropShape } from '../../contract/component-shape';
import type { Report } from '../shared/kind-interface';
import { showValue } from '../shared/prop-values';

/** Checks `min` and `max` on a prop of any type: allowed on integer and integer[] props only, integers, in order, around the default. */
export function checkBounds(prop: PropShape, type: string, report: Report): void {
  const bounds = (['min', 'max'] as const).filter((bound) => prop[bound] !== undefined);
  if (bounds.length === 0) return;
  if (type !== 'integer' && type !== 'integer[]') {
    for (const bound of bounds) report(bound, `${bound} is allowed only on integer and integer[] props; remove ${bound} or change the type to integer`);
    return;
  }
  for (const bound of bounds) {
    if (!Number.isInteger(prop[bound])) report(bound, `${bound} must be an integer, not ${showValue(prop[bound])}`);
  }
  const min = Number.isInteger(prop.min) ? prop.min : undefined;
  const max = Number.isInteger(prop.max) ? prop.max : undefined;
  if (min !== undefined && max !== undefined && min > max) {
    report('min', `min (${min}) is greater than max (${max}); swap them or fix one`);
  }
  const values = Array.isArray(prop.default) ? prop.default : [prop.default];
  for (const n of values.filter((v): v is number => Number.isInteger(v))) {
    if ((min !== undefined && n < min) || (max !== undefined && n > max)) {
      report('default', `default ${n} is outside the allowed range ${min ?? '…'} to ${max ?? '…'}; change default or the bounds`);
      return;
    }
  }
}

/** Why a configured integer (or each item of an integer[]) is outside the prop's bounds; null when it is not. */
export function boundsProblem(prop: ConfigurableProp, value: unknown): string | null {
  if (prop.type === 'integer[]' && Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const problem = boundsProblem({ ...prop, type: 'integer' }, item);
      if (problem) return `item ${i} ${problem}`;
    }
    return null;
  }
  if (prop.type !== 'integer' || typeof value !== 'number') return null;
  if (prop.min !== undefined && value < prop.min) return `must be at least ${prop.min}, not ${value}`;
  if (prop.max !== undefined && value > prop.max) return `must be at most ${prop.max}, not ${value}`;
  return null;
}
