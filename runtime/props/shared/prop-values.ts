// Value rules shared by every prop kind: the shape a user-input type takes, the spec's static-value
// limit, a required entered value, and how values are shown in messages.
import type { ConfigurableProp } from '../../contract/component-shape';
import { isRecord } from './prop-shape';

/** Largest prop value, in UTF-8 bytes of its JSON text, that may be entered as static text (spec section 8). */
export const STATIC_VALUE_LIMIT = 64 * 1024;

/** Whether `value` is a value of the user-input `type`; types without a value shape accept anything. */
export function matchesType(type: string, value: unknown): boolean {
  if (type.endsWith('[]')) return Array.isArray(value) && value.every((item) => matchesType(type.slice(0, -2), item));
  if (type === 'string') return typeof value === 'string';
  if (type === 'integer') return Number.isInteger(value);
  if (type === 'boolean') return typeof value === 'boolean';
  if (type === 'object') return isRecord(value);
  return true;
}

/** How a value of `type` is described in messages, e.g. "an array of integers". */
export function expectedValue(type: string): string {
  if (type.endsWith('[]')) return `an array of ${type.slice(0, -2)}s`;
  return type === 'integer' || type === 'object' ? `an ${type}` : `a ${type}`;
}

/** Returns a message when `value`, written as JSON text, is over the 64 KB static-value limit; null otherwise. */
export function staticValueProblem(value: unknown): string | null {
  const text = JSON.stringify(value);
  if (text === undefined) return null;
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= STATIC_VALUE_LIMIT) return null;
  return `is ${bytes} bytes as JSON text, over the ${STATIC_VALUE_LIMIT}-byte (64 KB) limit for static values; shorten it or load the data at run time`;
}

/** A short rendering of a value for messages. */
export function showValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** A string with at least one character. */
export function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/**
 * The outcome of a value the user enters (user-input and app-specific types): a missing one is a
 * problem unless the prop is optional or has a default (which the component then uses); a given one
 * must pass `typeProblem` and the static-value limit.
 */
export function enteredValue(prop: ConfigurableProp, value: unknown, typeProblem: (value: unknown) => string | null): { value: unknown } | { problem: string } | null {
  if (value === undefined || value === null) {
    return !prop.optional && prop.default === undefined ? { problem: `prop \`${prop.name}\` is required; give it a value in configured_props` } : null;
  }
  const problem = typeProblem(value) ?? staticValueProblem(value);
  return problem ? { problem: `prop \`${prop.name}\` ${problem}` } : { value };
}
