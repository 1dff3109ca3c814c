// Turning the calls a run could not answer from its cassette (network mode `discover` answered them
// with an empty success; `replay` failed them) into cassette entries for the user to fill in.

import type { InvocationView } from '../../contract/invocation-api';
import type { Cassette, CassetteEntry, OutgoingCall } from '../../contract/network-api';
import { emptyCassette } from '../../store/cassette-store';

/** The calls of runs that no recording answered: listed by discovery, or missed in replay (each request once). */
export function unansweredCalls(runs: readonly Pick<InvocationView, 'calls'>[]): OutgoingCall[] {
  const seen = new Set<string>();
  const found: OutgoingCall[] = [];
  for (const call of runs.flatMap((r) => r.calls)) {
    const missed = call.served_by === 'discovery' || (call.served_by === 'cassette' && call.response === null);
    const key = `${call.request.method} ${call.request.url}\n${call.request.body}`;
    if (missed && !seen.has(key)) {
      seen.add(key);
      found.push(call);
    }
  }
  return found;
}

/**
 * A cassette with an entry per call: the request as it was made (credentials masked) less its body,
 * and a 200 with an empty body to fill in. A hand-written entry without a body matches any body: a
 * webhook registration's body holds the endpoint URL, which a failed deploy's next try changes.
 */
export function cassetteSkeleton(calls: readonly OutgoingCall[], base?: Cassette): Cassette {
  const entries: CassetteEntry[] = calls.map((c) => ({
    request: { ...c.request, body: '', body_encoding: 'utf8', body_size: 0, body_truncated: false },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: '', body_encoding: 'utf8', body_size: 0, body_truncated: false },
    recorded_at: null,
  }));
  const cassette = base ?? emptyCassette();
  return { ...cassette, entries: [...cassette.entries, ...entries] };
}

/** One line per call: `METHOD URL` and a short body, for a terminal. */
export function callLines(calls: readonly OutgoingCall[]): string[] {
  return calls.map((c) => `  ${c.request.method} ${c.request.url}${c.request.body ? `  ${c.request.body.length > 80 ? `${c.request.body.slice(0, 77)}...` : c.request.body}` : ''}`);
}
