// "Copy as cURL": a shell command that sends a recorded request again exactly (method, path,
// query, every header, the body byte for byte), and the older event-only form for events that have
// no recorded request.

import type { RecordedRequest } from '../../../../runtime/contract/invocation-api';
import type { EventSummary } from '../../../../runtime/contract/source-api';

/** A word quoted for POSIX shells (bash, zsh, dash): single quotes, each `'` as `'\''`. */
export const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Headers of one connection or one framing of the body: curl sets them anew (as the service's replay does). */
const CONNECTION_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade', 'te', 'trailer', 'proxy-connection']);

/** Headers curl adds by itself (content-type and expect only with a body): removed when the request had none. */
const CURL_DEFAULTS = [
  { name: 'User-Agent', withBody: false },
  { name: 'Accept', withBody: false },
  { name: 'Content-Type', withBody: true },
  { name: 'Expect', withBody: true },
];

/** Above this size a text body goes through stdin: one argument may hold at most 128 KiB on Linux. */
const INLINE_BODY_LIMIT = 64 * 1024;

/** The URL a recorded request was sent to: endpoint, sub-path (encoded again), query as sent. */
export function requestUrl(request: RecordedRequest): string {
  // The path is recorded decoded (`event.path`): encoded again, `?` and `#` included, so it stays one path.
  const path = request.path === '/' ? '' : encodeURI(request.path).replace(/\?/g, '%3F').replace(/#/g, '%23');
  return `${request.endpoint_url.replace(/\/$/, '')}${path}${request.query ? `?${request.query}` : ''}`;
}

/** Base64 of a string's UTF-8 bytes. */
function utf8Base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * A curl command that sends `request` again as it arrived, or null when its body was recorded only
 * in part (it cannot be sent again as it was). Binary bodies are decoded from base64 on the way in
 * (`base64 -d`), so the bytes are the recorded ones; headers curl would add on its own are removed
 * when the request did not carry them.
 */
export function curlForRequest(request: RecordedRequest): string | null {
  if (request.body_truncated) return null;
  const method = request.method.toUpperCase();
  const hasBody = request.body_size > 0;
  const args: string[] = [method === 'HEAD' ? '--head' : method === 'GET' && !hasBody ? '' : `-X ${method}`, '--globoff --path-as-is', shellQuote(requestUrl(request))].filter(Boolean);
  const present = new Set<string>();
  for (const [name, value] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    if (CONNECTION_HEADERS.has(lower)) continue;
    present.add(lower);
    // `Name;` sends an empty header; `Name:` would remove it.
    for (const v of Array.isArray(value) ? value : [value]) args.push(`-H ${shellQuote(v === '' ? `${name};` : `${name}: ${v}`)}`);
  }
  for (const d of CURL_DEFAULTS) if (!present.has(d.name.toLowerCase()) && (hasBody || !d.withBody)) args.push(`-H ${shellQuote(`${d.name}:`)}`);
  let stdin = '';
  if (hasBody) {
    // Text with NUL bytes cannot be a shell argument: it goes as base64 like binary bodies.
    const binary = request.body_encoding === 'base64' || request.body.includes('\u0000');
    if (binary) {
      stdin = `printf %s ${shellQuote(request.body_encoding === 'base64' ? request.body : utf8Base64(request.body))} | base64 -d | `;
      args.push('--data-binary @-');
    } else if (request.body.length > INLINE_BODY_LIMIT) {
      stdin = `printf %s ${shellQuote(request.body)} | `;
      args.push('--data-binary @-');
    } else args.push(`--data-raw ${shellQuote(request.body)}`);
  }
  return `${stdin}curl ${args.join(' \\\n  ')}`;
}

/**
 * For an event with no recorded request: a curl command that posts its data (an HTTP event's
 * `body`) to the endpoint, preceded by comments that say it is not the request that was sent (the
 * method, path, query and headers are unknown), and why: `pruned` when its run is no longer kept.
 */
export function curlForEvent(e: EventSummary, endpoint: string | null, pruned = false): string {
  const data = e.event as { body?: unknown } | null;
  const isHttp = data !== null && typeof data === 'object' && 'body' in data;
  const body = isHttp ? data.body : e.event;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const url = (endpoint ?? 'http://127.0.0.1:7620/e/ENDPOINT').replace(/\/$/, '');
  const why = pruned ? `# The run that emitted event ${e.id} is no longer kept (runs are pruned before events), and with it the request that was sent.` : `# Event ${e.id} has no recorded request (it was emitted before runs were recorded, or not by a request).`;
  const what = `# This posts the event's ${isHttp ? 'body' : 'data'} as JSON to the endpoint; the method, path, query and headers of the original are not known.`;
  return `${why}\n${what}\ncurl -X POST ${shellQuote(url)} -H 'content-type: application/json' --data-raw ${shellQuote(text ?? '')}`;
}
