// Results an agent reads are bounded: its context is small, and a run's logs or a body can be
// megabytes. Long strings and long lists are cut where they are, and `_cut` says what was cut.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cutText } from '../../../lib/text-limits';

/** Of a result, this many characters of JSON at most. */
export const RESULT_LIMIT = 24_000;
/** Of one string, this many bytes. */
const STRING_LIMIT = 4_000;
/** Of one list, this many items (the newest, or the first). */
const LIST_LIMIT = 50;

/** `value` with its long strings and lists cut, each cut named in `cuts` by its path. */
function cut(value: unknown, at: string, cuts: string[]): unknown {
  if (typeof value === 'string') {
    const kept = cutText(value, STRING_LIMIT, 'strings of a tool result');
    if (kept !== value) cuts.push(`${at || 'the result'} (a string of ${value.length} characters)`);
    return kept;
  }
  if (Array.isArray(value)) {
    if (value.length > LIST_LIMIT) cuts.push(`${at || 'the result'} (${value.length} items; the first ${LIST_LIMIT} kept)`);
    return value.slice(0, LIST_LIMIT).map((v, i) => cut(v, `${at}[${i}]`, cuts));
  }
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cut(v, at ? `${at}.${k}` : k, cuts)]));
  return value;
}

/** A tool's answer as text and structured content, cut to size with a note saying what was cut. */
export function boundedResult(value: Record<string, unknown>, summary?: string): CallToolResult {
  const cuts: string[] = [];
  let kept = cut(value, '', cuts) as Record<string, unknown>;
  let text = JSON.stringify(kept);
  if (text.length > RESULT_LIMIT) {
    cuts.push(`the whole result (${text.length} characters of JSON; the first ${RESULT_LIMIT} kept as text)`);
    text = text.slice(0, RESULT_LIMIT);
    kept = { partial_json: text };
  }
  if (cuts.length > 0) kept = { ...kept, _cut: `Cut to keep the answer small: ${cuts.join('; ')}. Ask for one item (get_run, a smaller limit) to see more.` };
  const content: CallToolResult['content'] = summary ? [{ type: 'text', text: summary }] : [];
  content.push({ type: 'text', text: JSON.stringify(kept) });
  return { content, structuredContent: kept };
}
