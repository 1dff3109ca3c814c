// Values chosen with their labels. A `withLabel: true` prop holds `{label, value}` (an array of them
// for an array type), as Pipedream gives it (`this.tableId.value`, `this.tableId.label`); a value may
// be given as `{label, value}`, as connect-react's `{"__lv": …}`, or plain (its option's label, else
// its own text, becomes the label). Other props take `{"__lv": …}` as its value(s). Used in the
// component host too (a default), so it imports nothing of the service.
import { isRecord } from './prop-shape';

/** A value with the label it was chosen by. */
export interface LabeledValue {
  label: string;
  value: unknown;
}

/** What a prop declares that labels depend on. */
interface LabelSource {
  withLabel?: unknown;
  options?: unknown;
}

const isText = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** Whether `v` is `{label, value}` (`label` optional, text or a number), nothing else. */
export function isLabeled(v: unknown): v is { label?: unknown; value: unknown } {
  return isRecord(v) && 'value' in v && Object.keys(v).every((k) => k === 'label' || k === 'value') && (v.label === undefined || isText(v.label));
}

/** `{"__lv": x}` → x; the second element says whether it was wrapped. */
function unwrap(v: unknown): [unknown, boolean] {
  if (isRecord(v) && Object.keys(v).length === 1 && '__lv' in v) return [v.__lv, true];
  return [v, false];
}

const textOf = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v)));

/** The label of `value` among the prop's static options, if it is one of them. */
function optionLabel(prop: LabelSource, value: unknown): string | undefined {
  if (!Array.isArray(prop.options)) return undefined;
  const option: unknown = prop.options.find((o) => (isLabeled(o) ? JSON.stringify(o.value) === JSON.stringify(value) : false));
  return isLabeled(option) && option.label !== undefined ? String(option.label) : undefined;
}

function labeledItem(prop: LabelSource, item: unknown): LabeledValue {
  const [v] = unwrap(item);
  if (isLabeled(v)) return { label: v.label === undefined ? textOf(v.value) : String(v.label), value: v.value };
  return { label: optionLabel(prop, v) ?? textOf(v), value: v };
}

/** A withLabel prop's value as the component gets it: `{label, value}`, or an array of them for an array given. */
export function toLabeled(prop: LabelSource, given: unknown): unknown {
  const [v] = unwrap(given);
  if (v === undefined || v === null) return v;
  return Array.isArray(v) ? v.map((item) => labeledItem(prop, item)) : labeledItem(prop, v);
}

/** The value(s) inside labeled ones, labels dropped; anything else as it is. */
export function plainOf(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plainOf);
  return isLabeled(v) ? v.value : v;
}

/**
 * A configured value as a component reads it: with `labels` (a withLabel prop), labeled; otherwise
 * `{"__lv": …}` (and arrays of them) unwrapped to the value(s), and anything else as given.
 */
export function readLabels(prop: LabelSource, given: unknown, labels: boolean): unknown {
  if (labels) return toLabeled(prop, given);
  const [v, wrapped] = unwrap(given);
  if (wrapped) return plainOf(v);
  if (Array.isArray(v) && v.some((item) => unwrap(item)[1])) return v.map((item) => plainOf(unwrap(item)[0]));
  return v;
}

/** A prop's default as the component gets it: labeled for a withLabel prop (`this.x.value` works), else as written. */
export function defaultValue(def: LabelSource & { default?: unknown }): unknown {
  return def.withLabel === true ? toLabeled(def, def.default) : def.default;
}
