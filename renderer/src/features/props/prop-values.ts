import type { ConfigurableProp } from '../../../../runtime/contract/component-shape';
import type { SourceView } from '../../../../runtime/contract/source-api';

/** Prop types a user types a value into. */
export const USER_INPUT = new Set(['string', 'string[]', 'integer', 'integer[]', 'boolean', 'boolean[]', 'object', 'any', 'http_request']);

/** A static option as written: a bare value or `{label, value}`. */
export function normalizeOption(o: unknown): { label: string; value: unknown } {
  if (o && typeof o === 'object' && 'value' in o) {
    const x = o as { label?: unknown; value: unknown };
    // Labels may be numbers (`{ label: 1, value: 1 }`): shown as text.
    return { label: x.label === undefined || x.label === null ? String(x.value) : String(x.label), value: x.value };
  }
  return { label: String(o), value: o };
}

const isLabeled = (v: unknown): v is { label?: unknown; value: unknown } => typeof v === 'object' && v !== null && !Array.isArray(v) && 'value' in v && Object.keys(v).every((k) => k === 'label' || k === 'value');

/** What a form keeps for a chosen option: a withLabel prop keeps it with its label (`{label, value}`, as the component reads it), others its value. */
export function chosen(prop: ConfigurableProp, option: { label: string; value: unknown }): unknown {
  return prop.withLabel === true ? { label: option.label, value: option.value } : option.value;
}

/** The value inside one held value of `prop` (a withLabel prop holds `{label, value}`), to match against options. */
export function heldValue(prop: ConfigurableProp, held: unknown): unknown {
  return prop.withLabel === true && isLabeled(held) ? held.value : held;
}

/** The label a withLabel prop's held value was chosen by, or null. */
export function heldLabel(prop: ConfigurableProp, held: unknown): string | null {
  return prop.withLabel === true && isLabeled(held) && held.label !== undefined ? String(held.label) : null;
}

/** Starting values for a form: what is configured already, else each prop's default. */
export function initialValues(props: ConfigurableProp[], existing: Record<string, unknown> = {}): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const p of props) {
    if (p.name in existing) {
      const v = existing[p.name];
      // The views show an HTTP interface as its endpoint and a timer as its schedule, not as input.
      if (p.type === '$.interface.http' || p.type === '$.service.db') continue;
      if (p.type === '$.interface.timer') continue;
      values[p.name] = v;
    } else if (p.default !== undefined && (USER_INPUT.has(p.type) || p.type === 'app' || p.type === 'data_store')) {
      values[p.name] = p.default;
    }
  }
  return values;
}

/** The `configured_props` to send: set values of the props the form shows (timers only when the user set one). */
export function configuredProps(props: ConfigurableProp[], values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of props) {
    const v = values[p.name];
    if (v === undefined || v === '' || p.type === '$.interface.http' || p.type === '$.service.db' || p.type === 'alert') continue;
    out[p.name] = v;
  }
  return out;
}

/** The endpoint URL of an HTTP interface prop of a deployed source. */
export function endpointFor(source: SourceView | null | undefined, prop: string): string | null {
  const v = source?.configured_props[prop];
  return v && typeof v === 'object' && 'endpoint_url' in v ? String((v as { endpoint_url: unknown }).endpoint_url) : null;
}

/** The endpoint URL of a source's first HTTP interface prop, if any. */
export function endpointOf(source: SourceView): string | null {
  for (const value of Object.values(source.configured_props)) {
    if (value && typeof value === 'object' && 'endpoint_url' in value) return String((value as { endpoint_url: unknown }).endpoint_url);
  }
  return null;
}
