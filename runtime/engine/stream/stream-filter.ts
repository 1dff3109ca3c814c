// The stream's filter language (docs/api.md "Filters"): space-separated terms that must all
// match, `-term` to negate, quoted values. Parsing is pure: a filter that does not parse throws a
// FilterSyntaxError naming the term and what is allowed.

export type CompareOp = ':' | '=' | '!=' | '>' | '>=' | '<' | '<=';

export type FilterTerm =
  | { key: 'kind'; value: 'run' | 'event' }
  | { key: 'status'; value: 'ok' | 'error' | 'timeout' | 'running' }
  | { key: 'target'; type: 'source' | 'action' | 'workflow' | null; value: string }
  | { key: 'trigger'; value: string }
  | { key: 'method'; value: string }
  | { key: 'path'; pattern: RegExp }
  | { key: 'code'; op: CompareOp; value: number; cls: boolean }
  | { key: 'header'; name: string; value: string | null }
  | { key: 'body'; path: string[]; op: CompareOp; value: string }
  | { key: 'delivery'; value: 'none' | 'pending' | 'delivered' | 'failed' | 'paused' }
  | { key: 'since' | 'until'; ms: number }
  | { key: 'text'; value: string };

export interface FilterClause {
  negate: boolean;
  term: FilterTerm;
}

/** A parsed filter: every clause must hold. */
export interface StreamFilter {
  expr: string;
  clauses: FilterClause[];
}

/** A filter that does not parse; the message names the term and what is allowed. */
export class FilterSyntaxError extends Error {}

const KEYS = 'kind, status, source, action, workflow, target, trigger, method, path, code, header, body.FIELD, delivery, since, until';
const STATUSES = ['ok', 'error', 'timeout', 'running'] as const;
const TRIGGERS = ['http', 'timer', 'run_now', 'event', 'hook', 'action'];
const DELIVERY = ['none', 'pending', 'delivered', 'failed', 'paused'] as const;
const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };
/** A term: its key (a word, or body. and a field path), its operator, and its value. */
const TERM = /^([A-Za-z_]+|body(?:\.[^\s.:=!<>"]+)+)(!=|>=|<=|:|=|>|<)(.*)$/s;

/** Splits an expression at spaces outside quotes; each token keeps its quotes. */
function tokens(expr: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < expr.length; i++) {
    const c = expr[i] as string;
    if (c === '\\' && quoted && i + 1 < expr.length) {
      current += c + expr[++i];
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (!quoted && /\s/.test(c)) {
      if (current) out.push(current);
      current = '';
      continue;
    }
    current += c;
  }
  if (quoted) throw new FilterSyntaxError(`filter term \`${current}\`: a quote is not closed (close it: path:"/a b")`);
  if (current) out.push(current);
  return out;
}

/** A value without its quotes (`\"` and `\\` unescaped). */
function unquote(value: string, term: string): string {
  if (!value.includes('"')) return value;
  const m = /^"((?:[^"\\]|\\.)*)"$/s.exec(value);
  if (!m) throw new FilterSyntaxError(`filter term \`${term}\`: quote the whole value (key:"a b")`);
  return (m[1] as string).replace(/\\(.)/g, '$1');
}

function oneOf<T extends string>(value: string, allowed: readonly T[], term: string, key: string): T {
  const v = value.toLowerCase();
  if (!(allowed as readonly string[]).includes(v)) throw new FilterSyntaxError(`filter term \`${term}\`: ${key} is one of ${allowed.join(', ')}`);
  return v as T;
}

/** A time: a duration back from now (15m, 2h, 7d), an ISO date or date-time (local time without an offset), or epoch ms. */
function timeOf(value: string, now: number, term: string): number {
  const ago = /^(\d+)(s|m|h|d|w)$/.exec(value);
  if (ago) return now - Number(ago[1]) * (UNITS[ago[2] as string] as number);
  if (/^\d{10,}$/.test(value)) return Number(value);
  const ms = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(/T/.test(value) || value.length > 10 ? value : `${value}T00:00`) : Number.NaN;
  if (Number.isNaN(ms)) throw new FilterSyntaxError(`filter term \`${term}\`: a time is a duration back from now (15m, 2h, 7d), a date (2026-11-28), a date-time (2026-11-28T10:00) or epoch ms`);
  return ms;
}

/** A path pattern: a prefix, `*` matching any characters. */
function pathPattern(value: string, term: string): RegExp {
  if (!value.startsWith('/') && !value.startsWith('*')) throw new FilterSyntaxError(`filter term \`${term}\`: a path starts with / (path:/orders, path:/orders/*/items)`);
  const escaped = value
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${escaped}`, 'i');
}

function codeTerm(op: CompareOp, value: string, term: string): FilterTerm {
  const cls = /^([1-5])xx$/i.exec(value);
  if (cls && (op === ':' || op === '=' || op === '!=')) return { key: 'code', op, value: Number(cls[1]), cls: true };
  if (!/^\d{3}$/.test(value)) throw new FilterSyntaxError(`filter term \`${term}\`: code takes an HTTP status (code:500, code>=400) or a class (code:5xx)`);
  return { key: 'code', op, value: Number(value), cls: false };
}

/** One term (without its `-`). */
function termOf(text: string, now: number): FilterTerm {
  const m = TERM.exec(text);
  if (!m) {
    if (/^[A-Za-z_.]+(!=|>=|<=|=|>|<)/.test(text)) throw new FilterSyntaxError(`filter term \`${text}\`: only code and body.FIELD compare with = != > >= < <=; other keys take key:value`);
    return { key: 'text', value: unquote(text, text).toLowerCase() };
  }
  const key = (m[1] as string).toLowerCase();
  const op = m[2] as CompareOp;
  const rawValue = m[3] as string;
  if (key.startsWith('body.')) {
    const value = unquote(rawValue, text);
    if ((op === '>' || op === '>=' || op === '<' || op === '<=') && !Number.isFinite(Number(value))) {
      throw new FilterSyntaxError(`filter term \`${text}\`: ${op} compares numbers and \`${value}\` is not one (use : or = for text)`);
    }
    if (value === '' && op !== '=' && op !== '!=') throw new FilterSyntaxError(`filter term \`${text}\`: give a value (body.amount>50, body.status:paid)`);
    return { key: 'body', path: (m[1] as string).split('.').slice(1), op, value };
  }
  if (key === 'code') return codeTerm(op, unquote(rawValue, text), text);
  if (!KEYS.split(', ').includes(key)) throw new FilterSyntaxError(`filter term \`${text}\`: unknown key \`${key}\`; keys are ${KEYS} (quote the term to search for it as text)`);
  if (op !== ':') throw new FilterSyntaxError(`filter term \`${text}\`: ${key} takes ${key}:value (only code and body.FIELD compare with = != > >= < <=)`);
  const value = unquote(rawValue, text);
  if (value === '') throw new FilterSyntaxError(`filter term \`${text}\`: give a value after ${key}:`);
  switch (key) {
    case 'kind':
      return { key, value: oneOf(value, ['run', 'event'] as const, text, key) };
    case 'status':
      return { key, value: oneOf(value, STATUSES, text, key) };
    case 'source':
    case 'action':
    case 'workflow':
      return { key: 'target', type: key, value: value.toLowerCase() };
    case 'target':
      return { key, type: null, value: value.toLowerCase() };
    case 'trigger':
      return { key, value: oneOf(value, TRIGGERS, text, key) };
    case 'method':
      if (!/^[A-Za-z]+$/.test(value)) throw new FilterSyntaxError(`filter term \`${text}\`: method is an HTTP method (method:POST)`);
      return { key, value: value.toUpperCase() };
    case 'path':
      return { key, pattern: pathPattern(value, text) };
    case 'header': {
      const eq = value.indexOf('=');
      const name = (eq === -1 ? value : value.slice(0, eq)).toLowerCase();
      if (!/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) throw new FilterSyntaxError(`filter term \`${text}\`: header takes a header name and a value (header:x-shopify-topic=orders/create) or a name alone`);
      return { key, name, value: eq === -1 ? null : value.slice(eq + 1).toLowerCase() };
    }
    case 'delivery':
      return { key, value: oneOf(value, DELIVERY, text, key) };
    default:
      return { key: key as 'since' | 'until', ms: timeOf(value, now, text) };
  }
}

/** Parses a filter expression; `now` resolves durations (since:15m). Throws FilterSyntaxError. */
export function parseFilter(expr: string, now = Date.now()): StreamFilter {
  if (expr.length > 2000) throw new FilterSyntaxError('a filter is at most 2000 characters');
  const clauses = tokens(expr).map((token): FilterClause => {
    const negate = token.startsWith('-') && token.length > 1;
    return { negate, term: termOf(negate ? token.slice(1) : token, now) };
  });
  return { expr, clauses };
}

/** Whether the filter reads delivery states (asked of the delivery thread). */
export function usesDelivery(filter: StreamFilter): boolean {
  return filter.clauses.some((c) => c.term.key === 'delivery');
}
