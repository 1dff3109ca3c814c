// Finding the recording that answers a call in replay: same method, same URL (less the query
// parameters the cassette ignores, the query compared as decoded), same body if the cassette compares bodies (an entry written by
// hand without a body matches any body); in `sequence` order, calls to the same request take the
// recordings one after another.
import type { CallRequest, Cassette, CassetteEntry } from '../../contract/network-api';

/** The parts of a request that decide which recording answers it. */
export function requestKey(request: Pick<CallRequest, 'method' | 'url' | 'body'>, cassette: Pick<Cassette, 'matching'>): string {
  const ignored = new Set(cassette.matching.ignore_query.map((q) => q.toLowerCase()));
  let url = request.url;
  try {
    const parsed = new URL(request.url);
    for (const name of [...parsed.searchParams.keys()]) if (ignored.has(name.toLowerCase())) parsed.searchParams.delete(name);
    // Re-encoded, so two spellings of one query (`https:%2F%2F…` as axios sends it, `https%3A%2F%2F…`) match.
    parsed.search = parsed.searchParams.toString();
    parsed.hash = '';
    url = parsed.toString();
  } catch {
    // not a URL: compared as written
  }
  return `${request.method.toUpperCase()} ${url}${cassette.matching.body ? `\n${request.body}` : ''}`;
}

/** An entry written by hand (never recorded) that gives no request body: it answers the request whatever its body. */
function bodyless(entry: CassetteEntry): boolean {
  return entry.recorded_at === null && entry.request.body === '';
}

/** Matches calls to a cassette's entries, keeping each request's place in the sequence. */
export class Matcher {
  /** For each request key, how many of its recordings were used. */
  private readonly used = new Map<string, number>();

  /** Forgets the places (a new cassette, or the user starting over). */
  reset(): void {
    this.used.clear();
  }

  /** The entry that answers `request` (and its index), or null when none was recorded. */
  match(cassette: Cassette, request: Pick<CallRequest, 'method' | 'url' | 'body'>): { entry: CassetteEntry; index: number } | null {
    const key = requestKey(request, cassette);
    const anyBody = { ...cassette, matching: { ...cassette.matching, body: false } };
    const loose = requestKey(request, anyBody);
    const candidates: number[] = [];
    cassette.entries.forEach((e, i) => {
      if (requestKey(e.request, cassette) === key || (bodyless(e) && requestKey(e.request, anyBody) === loose)) candidates.push(i);
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
