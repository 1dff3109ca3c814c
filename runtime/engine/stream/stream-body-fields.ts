// The body fields filters have read, remembered per stored record: a request with a `body.` term
// then answers from memory instead of reading and parsing every kept record again. Keyed by the
// store's record object, so a trimmed record's fields go with it and an appended one starts empty
// (a stored record's body never changes once kept).

/** A value too large to remember (long text, long lists): read from the record each time. */
const TOO_BIG = Symbol('too big');
/** What a nested object is remembered as: no body term matches an object, so its keys are not kept. */
const OBJECT: Readonly<Record<string, never>> = Object.freeze({});
const MAX_TEXT = 256;
const MAX_ITEMS = 64;
/** Field paths remembered per record (the filters in use); others are read each time. */
const MAX_PATHS = 8;

/** A JSON value at a field path (arrays by index). */
export function fieldAt(value: unknown, path: readonly string[]): unknown {
  let v = value;
  for (const key of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/** The value as a body term tests it (nested objects collapse to an empty one), or TOO_BIG. */
function compact(value: unknown): unknown {
  if (typeof value === 'string') return value.length > MAX_TEXT ? TOO_BIG : value;
  if (Array.isArray(value)) {
    if (value.length > MAX_ITEMS) return TOO_BIG;
    const items = value.map(compact);
    return items.includes(TOO_BIG) ? TOO_BIG : items;
  }
  return typeof value === 'object' && value !== null ? OBJECT : value;
}

/** A path's key in a record's fields; paths are a parsed filter's, so each is joined once. */
const keys = new WeakMap<readonly string[], string>();
function keyOf(path: readonly string[]): string {
  let key = keys.get(path);
  if (key === undefined) {
    key = path.join('\u0000');
    keys.set(path, key);
  }
  return key;
}

/** Where a stored record holds its remembered fields: on the record itself, so a trimmed one's go with it (a WeakMap of every record is slower to look up and to collect). */
const FIELDS = Symbol('body fields');
type Holder = { [FIELDS]?: Map<string, unknown> };

/** Whether the value at `path` of this record's body is remembered. */
export function fieldKnown(record: object, path: readonly string[]): boolean {
  return (record as Holder)[FIELDS]?.has(keyOf(path)) ?? false;
}

/** The value at `path` of a record's body (as a body term tests it): remembered, or read with `body` and remembered. */
export function bodyField(record: object, path: readonly string[], body: () => unknown): unknown {
  const holder = record as Holder;
  const key = keyOf(path);
  let known = holder[FIELDS];
  if (known?.has(key)) return known.get(key);
  const value = fieldAt(body(), path);
  const kept = compact(value);
  if (kept !== TOO_BIG) {
    if (!known) {
      known = new Map();
      holder[FIELDS] = known;
    }
    if (known.size < MAX_PATHS) known.set(key, kept);
  }
  return value;
}
