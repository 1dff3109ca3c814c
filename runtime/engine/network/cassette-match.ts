// Finding the recording that answers a call in replay: same method, same URL in one canonical form
// (less the query parameters the cassette ignores), same body if the cassette compares bodies (an
// entry written by hand without a body matches any body); in `sequence` order, calls to the same
// request take the recordings one after another.
import type { CallRequest, Cassette, CassetteEntry } from '../../contract/network-api';

/** Decodes percent-escapes where they are valid; a stray `%` stays as it is. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** One spelling of a query part or path segment: decoded, then escaped the one way (`%20`, `+` in a query, `%2A` and `*` all compare alike). */
function canonicalPart(text: string, query: boolean): string {
  return encodeURIComponent(decoded(query ? text.replace(/\+/g, ' ') : text));
}

/**
 * A URL as matching compares it: path segments and query parameters each decoded and escaped one
 * way, the ignored parameters left out (order kept), no fragment. Two spellings of one request
 * (`%20` or `+`, `%2A` or `*`, axios's `https:%2F%2F…`) give the same text. Not a URL: as written.
 */
export function canonicalUrl(url: string, ignoreQuery: readonly string[] = []): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const ignored = new Set(ignoreQuery.map((q) => q.toLowerCase()));
  const path = parsed.pathname
    .split('/')
    .map((s) => canonicalPart(s, false))
    .join('/');
  const query = parsed.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const at = pair.indexOf('=');
      const name = at < 0 ? pair : pair.slice(0, at);
      return { name: canonicalPart(name, true), pair: at < 0 ? canonicalPart(name, true) : `${canonicalPart(name, true)}=${canonicalPart(pair.slice(at + 1), true)}` };
    })
    .filter((q) => !ignored.has(decoded(q.name).toLowerCase()))
    .map((q) => q.pair);
  return `${parsed.protocol}//${parsed.host}${path}${query.length ? `?${query.join('&')}` : ''}`;
}

/** The parts of a request that decide which recording answers it. */
export function requestKey(request: Pick<CallRequest, 'method' | 'url' | 'body'>, cassette: Pick<Cassette, 'matching'>): string {
  return `${request.method.toUpperCase()} ${canonicalUrl(request.url, cassette.matching.ignore_query)}${cassette.matching.body ? `\n${request.body}` : ''}`;
}

/** An entry written by hand (never recorded) that gives no request body: it answers the request whatever its body. */
function bodyless(entry: CassetteEntry): boolean {
  return entry.recorded_at === null && entry.request.body === '';
}

/** Characters two texts share from their start. */
function sharedStart(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/** The recorded entry most like a request no entry answers (same method first, then the longest shared URL start), for the miss's message. */
export function closestEntry(cassette: Cassette, request: Pick<CallRequest, 'method' | 'url'>): { entry: CassetteEntry; index: number } | null {
  const url = canonicalUrl(request.url, cassette.matching.ignore_query);
  let best: { entry: CassetteEntry; index: number; score: number } | null = null;
  cassette.entries.forEach((entry, index) => {
    const sameMethod = entry.request.method.toUpperCase() === request.method.toUpperCase() ? 1 : 0;
    const score = sameMethod * 100_000 + sharedStart(url, canonicalUrl(entry.request.url, cassette.matching.ignore_query));
    if (!best || score > best.score) best = { entry, index, score };
  });
  return best;
}

/** Matches calls to a cassette's entries, keeping each request's place in the sequence. */
export class Matcher {
  /** For each request key, how many of its recordings were used. */
  private readonly used = new Map<string, number>();

  /** Forgets the places (a new cassette, or the user starting over). */
  reset(): void {
    this.used.clear();
  }

  /**
   * The entry that answers `request` (and its index), or null when none was recorded. `mask` is
   * applied to hand-written entries, as it was to the request: one written with the real key
   * matches as one written with `********` does.
   */
  match(cassette: Cassette, request: Pick<CallRequest, 'method' | 'url' | 'body'>, mask: (r: CallRequest) => CallRequest = (r) => r): { entry: CassetteEntry; index: number } | null {
    const key = requestKey(request, cassette);
    const anyBody = { ...cassette, matching: { ...cassette.matching, body: false } };
    const loose = requestKey(request, anyBody);
    const candidates: number[] = [];
    cassette.entries.forEach((e, i) => {
      const made = e.recorded_at === null ? mask(e.request) : e.request;
      if (requestKey(made, cassette) === key || (bodyless(e) && requestKey(made, anyBody) === loose)) candidates.push(i);
    });
    if (candidates.length === 0) return null;
    let index = candidates[0] as number;
    if (cassette.matching.order === 'sequence') {
      const n = this.used.get(key) ?? 0;
      index = candidates[Math.min(n, candidates.length - 1)] as number;
      this.used.set(key, n + 1);
    }
    return { entry: cassette.entries[index] as CassetteEntry, index };
  }
}
