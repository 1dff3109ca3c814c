// Value rules shared by every prop kind: the shape a user-input type takes, and the spec's static-value limit.
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

