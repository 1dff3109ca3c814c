// References in a workflow step's configured props: `{{steps.trigger.event.body.name}}`,
// `{{steps.fetch.$return_value.items[0].id}}`. Only paths into `steps` are allowed — no code runs
// on the service's thread — so a reference is data, and a bad one is a clear error.

/** A step prop's reference that cannot be read, with where it was written (not the built-in ReferenceError). */
export class StepReferenceError extends Error {}

const WHOLE = /^\s*\{\{\s*([^{}]+?)\s*\}\}\s*$/;
const EMBEDDED = /\{\{\s*([^{}]+?)\s*\}\}/g;

/** Splits `steps.a.b[0]["c d"]` into its keys; null when it is not a plain path. */
export function parsePath(expression: string): Array<string | number> | null {
  const keys: Array<string | number> = [];
  let rest = expression.trim();
  const head = /^[A-Za-z_$][\w$]*/.exec(rest);
  if (!head) return null;
  keys.push(head[0]);
  rest = rest.slice(head[0].length);
  while (rest.length > 0) {
    let m: RegExpExecArray | null;
    if ((m = /^\.([A-Za-z_$][\w$]*)/.exec(rest))) keys.push(m[1] as string);
    else if ((m = /^\[(\d+)\]/.exec(rest))) keys.push(Number(m[1]));
    else if ((m = /^\[\s*"((?:[^"\\]|\\.)*)"\s*\]/.exec(rest)) || (m = /^\[\s*'((?:[^'\\]|\\.)*)'\s*\]/.exec(rest))) keys.push(m[1] as string);
    else return null;
    rest = rest.slice(m[0].length);
  }
  return keys;
}

function read(scope: Record<string, unknown>, expression: string, where: string): unknown {
  const keys = parsePath(expression);
  if (keys?.[0] !== 'steps') {
    throw new StepReferenceError(`${where}: {{${expression}}} is not a reference; write a path into steps, e.g. {{steps.trigger.event.body}}`);
  }
  let value: unknown = scope;
  for (const key of keys) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

/**
 * Replaces references in a configured value: a string that is one whole reference becomes the
 * referenced value (any type); references inside text are written into it. Objects and arrays are
 * walked. `where` names the prop in errors.
 */
export function resolveReferences(value: unknown, scope: Record<string, unknown>, where: string): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) return read(scope, whole[1] as string, where);
    return value.replace(EMBEDDED, (_, expression: string) => {
      const found = read(scope, expression, where);
      if (found === undefined || found === null) return '';
      return typeof found === 'string' ? found : JSON.stringify(found);
    });
  }
  if (Array.isArray(value)) return value.map((item, i) => resolveReferences(item, scope, `${where}[${i}]`));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveReferences(v, scope, `${where}.${k}`)]));
  }
  return value;
}
