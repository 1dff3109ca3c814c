// Whether a row of the stream matches a filter. What is cheap (kind, target, status, trigger,
// time) is held by the subject; the rest (request, body, text) is read only when a term asks.
import type { StreamRow } from '../../contract/stream-api';
import { fieldAt } from './stream-body-fields';
import type { FilterClause, FilterTerm, StreamFilter } from './stream-filter';
import type { DeliveryState, StreamTarget } from './stream-rows';

/** What a term may read of a run or an event, beyond the subject's cheap fields. */
export interface SubjectDetail {
  row: StreamRow;
  /** Request headers of the run (or the event's run), names in lower case. */
  headers: Record<string, string | string[] | unknown>;
  /** The request body (runs) or the event body (events) as JSON; undefined when it is not JSON. */
  body: () => unknown;
  /** Text for bare words, in lower case: summary, path and body. */
  text: () => string;
}

/** A run or an event as a filter sees it. */
export interface StreamSubject {
  kind: 'run' | 'event';
  id: string;
  ts: number;
  target: StreamTarget;
  status: StreamRow['status'];
  trigger: string | null;
  /** The stored line, when there is one: terms that need a word pass over lines without it unread. */
  line: (() => string) | null;
  detail: () => SubjectDetail;
  /** The body value at a path, remembered across requests (stored records); absent: read through `detail`. */
  field?: (path: readonly string[]) => unknown;
  /** Whether `field` answers this path from memory (its line need not be read for the path's word). */
  fieldKnown?: (path: readonly string[]) => boolean;
  /** Its delivery state, once looked up (events); null for runs. */
  delivery: DeliveryState | null;
  /** Whether its record was trimmed since it was listed (stored records). */
  gone?: () => boolean;
}

function compare(op: FilterClause['term'] & { op: string }, actual: number, wanted: number): boolean {
  switch (op.op) {
    case '>':
      return actual > wanted;
    case '>=':
      return actual >= wanted;
    case '<':
      return actual < wanted;
    case '<=':
      return actual <= wanted;
    case '!=':
      return actual !== wanted;
    default:
      return actual === wanted;
  }
}

/** body.FIELD OP VALUE: `:` equals (contains, ignoring case, for text), numbers compare as numbers; a list matches when an item does. */
function bodyMatches(term: Extract<FilterTerm, { key: 'body' }>, value: unknown): boolean {
  if (Array.isArray(value) && term.op !== '!=') return value.some((item) => bodyMatches(term, item));
  if (term.op === '!=') return !bodyMatches({ ...term, op: '=' }, value);
  if (value === undefined || (typeof value === 'object' && value !== null)) return false;
  const wanted = Number(term.value);
  const numeric = typeof value === 'number' || (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)));
  if (term.op !== ':' && term.op !== '=') return numeric && Number.isFinite(wanted) && compare(term, Number(value), wanted);
  if (numeric && term.value.trim() !== '' && Number.isFinite(wanted)) return Number(value) === wanted;
  const text = String(value);
  return term.op === ':' ? text.toLowerCase().includes(term.value.toLowerCase()) : text === term.value;
}

function headerMatches(term: Extract<FilterTerm, { key: 'header' }>, headers: SubjectDetail['headers']): boolean {
  const given = headers[term.name];
  if (given === undefined) return false;
  if (term.value === null) return true;
  const values = Array.isArray(given) ? given : [given];
  return values.some((v) => String(v).toLowerCase() === term.value);
}

function targetMatches(term: Extract<FilterTerm, { key: 'target' }>, target: StreamTarget): boolean {
  if (term.type && target.type !== term.type) return false;
  return target.id.toLowerCase() === term.value || target.name.toLowerCase().includes(term.value);
}

/** Whether one term holds for a subject (delivery: only once the subject's state is looked up). */
function termHolds(term: FilterTerm, s: StreamSubject): boolean {
  switch (term.key) {
    case 'kind':
      return s.kind === term.value;
    case 'status':
      return s.status === term.value;
    case 'target':
      return targetMatches(term, s.target);
    case 'trigger':
      return s.trigger === term.value;
    case 'since':
      return s.ts >= term.ms;
    case 'until':
      return s.ts < term.ms;
    case 'delivery':
      return s.delivery?.state === term.value;
    case 'method':
      return s.detail().row.method === term.value;
    case 'path': {
      const path = s.detail().row.path;
      return path !== null && term.pattern.test(path);
    }
    case 'code': {
      const code = s.detail().row.response_status;
      if (code === null) return false;
      return compare(term, term.cls ? Math.floor(code / 100) : code, term.value);
    }
    case 'header':
      return headerMatches(term, s.detail().headers);
    case 'body':
      return bodyMatches(term, s.field ? s.field(term.path) : fieldAt(s.detail().body(), term.path));
    case 'text':
      return s.detail().text().includes(term.value);
  }
}

/** A word a line must hold for the term to match (a field name, plain text), or null. */
function wordOf(term: FilterTerm): string | null {
  // `!=` holds where the field is missing, so its name need not be in the line.
  if (term.key === 'body') return term.op === '!=' ? null : (term.path[term.path.length - 1] as string);
  if (term.key === 'text' && /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(term.value)) return term.value;
  return null;
}

/** Clauses cheapest first: those on the subject's own fields before those that read the record. */
const COST: Record<FilterTerm['key'], number> = { kind: 0, target: 0, status: 0, trigger: 0, since: 0, until: 0, delivery: 0, method: 1, path: 1, code: 1, header: 1, text: 2, body: 2 };

/** A test of subjects against a filter; `withDelivery` false passes delivery terms (checked once states are looked up). */
export function compileFilter(filter: StreamFilter): (s: StreamSubject, withDelivery?: boolean) => boolean {
  const clauses = [...filter.clauses].sort((a, b) => COST[a.term.key] - COST[b.term.key]);
  const words = clauses.flatMap((c) => {
    const word = c.negate ? null : wordOf(c.term);
    return word === null ? [] : [{ word: word.toLowerCase(), path: c.term.key === 'body' ? c.term.path : null }];
  });
  const cheap = clauses.filter((c) => COST[c.term.key] === 0);
  const dear = clauses.filter((c) => COST[c.term.key] > 0);
  const holds = (list: FilterClause[], s: StreamSubject, withDelivery: boolean) => {
    for (const c of list) {
      if (c.term.key === 'delivery' && !withDelivery) continue;
      if (termHolds(c.term, s) === c.negate) return false;
    }
    return true;
  };
  // The subject's own fields first, then the words its line must hold, then what reads the record.
  return (s, withDelivery = true) => {
    if (!holds(cheap, s, withDelivery)) return false;
    // A body field remembered needs no line: the word check only spares reading the record.
    const needed = s.fieldKnown ? words.filter((w) => !(w.path && s.fieldKnown?.(w.path))) : words;
    if (needed.length > 0 && s.line) {
      const line = s.line().toLowerCase();
      if (needed.some((w) => !line.includes(w.word))) return false;
    }
    return holds(dear, s, withDelivery);
  };
}

/** Whether any row of a store of this kind and target can match (a lane whose cannot is passed over unread). */
export function laneMayMatch(filter: StreamFilter, kind: StreamSubject['kind'], target: StreamTarget): boolean {
  // Events have no status or trigger of their own: a term on either needs runs.
  const needsRun = (key: string) => key === 'status' || key === 'trigger';
  return filter.clauses.every((c) => c.negate || (c.term.key === 'kind' ? c.term.value === kind : c.term.key === 'target' ? targetMatches(c.term, target) : needsRun(c.term.key) ? kind === 'run' : true));
}
