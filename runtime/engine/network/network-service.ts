// Service side of outgoing calls: answers replay lookups from an owner's cassette, masks the calls
// a run made before they are kept, and in record mode adds them to the cassette.

import type { NetworkAnswer } from '../../contract/host-protocol';
import type { CallRequest, NetworkMode, OutgoingCall } from '../../contract/network-api';
import { type CassetteStore, MAX_CASSETTE_ENTRIES } from '../../store/cassette-store';
import { closestEntry, Matcher } from './cassette-match';
import { Masker, secretFields } from './masker';

export class NetworkService {
  private readonly matchers = new Map<string, Matcher>();
  /** Sources being deployed: they have no id to PUT a cassette to yet, so a miss points at the deploy's own `cassette`. */
  private readonly deploying = new Set<string>();

  constructor(readonly cassettes: CassetteStore) {}

  /** The recording that answers `request` (masked as recordings are), or why there is none. */
  match(owner: string, masker: Masker, request: CallRequest): NetworkAnswer {
    const cassette = this.cassettes.get(owner);
    let matcher = this.matchers.get(owner);
    if (!matcher) this.matchers.set(owner, (matcher = new Matcher()));
    const masked = masker.request(request);
    const found = matcher.match(cassette, masked, (r) => masker.request(r));
    if (found) return { response: found.entry.response, entry: found.index, miss: null };
    const closest = closestEntry(cassette, masked);
    const hint = closest ? `none of the ${cassette.entries.length} calls recorded for ${owner} matches it (the closest is entry ${closest.index}: ${closest.entry.request.method} ${closest.entry.request.url})` : `${owner} has no recorded calls yet`;
    const how = this.deploying.has(owner) ? DEPLOY_HINT : howToRecord(owner);
    return { response: null, entry: null, miss: `no recording of ${masked.method} ${masked.url}: ${hint}; ${how}` };
  }

  /** Runs a source's deploy: misses meanwhile say to give the call in the deploy's cassette (the source is removed if the deploy fails). */
  async whileDeploying<T>(owner: string, deploy: () => Promise<T>): Promise<T> {
    this.deploying.add(owner);
    try {
      return await deploy();
    } finally {
      this.deploying.delete(owner);
    }
  }

  /** Masks a run's calls for its record; in record mode, the live ones that got an answer join the cassette. */
  record(owner: string, mode: NetworkMode, masker: Masker, calls: readonly OutgoingCall[]): OutgoingCall[] {
    const masked = calls.map((c) => masker.call(c));
    if (mode === 'record') {
      const entries = masked.flatMap((c) => (c.served_by === 'live' && c.response ? [{ request: c.request, response: c.response, recorded_at: Date.now() }] : []));
      this.cassettes.append(owner, entries).then(
        (left) => left > 0 && console.error(`the cassette of ${owner} holds ${MAX_CASSETTE_ENTRIES} calls, its limit: ${left} more were not recorded (edit it with GET/PUT ${cassettePath(owner)})`),
        (err: Error) => console.error(`saving the cassette of ${owner}: ${err.message}`),
      );
    }
    return masked;
  }

  /** Starts replay sequences over (a new cassette or a new mode). */
  reset(owner: string): void {
    this.matchers.delete(owner);
  }

  /** Forgets an owner's cassette. */
  async remove(owner: string): Promise<void> {
    this.matchers.delete(owner);
    await this.cassettes.remove(owner);
  }
}

/** The API path of an owner's cassette: a source's, an account's (the Connect proxy's calls), or a component's (an action's test runs). */
function cassettePath(owner: string): string {
  return `/v1/${owner.startsWith('dc_') ? 'sources' : owner.startsWith('apn_') ? 'accounts' : 'components'}/${owner}/cassette`;
}

/** What to do about a call with no recording during a deploy, which keeps nothing when it fails. */
const DEPLOY_HINT = 'add it to the cassette given with the deploy (`cassette` of POST /v1/sources, spout deploy --cassette FILE), or deploy with network_mode "record" or "discover" (docs/api.md "Recorded outgoing calls")';

/** What to do about a call with no recording, for a source's cassette or an action's (a component's). */
function howToRecord(owner: string): string {
  if (owner.startsWith('dc_')) return `record it with network mode "record" (spout dev --record, or network_mode on the source), or add it to the cassette (GET/PUT /v1/sources/${owner}/cassette)`;
  return `record it with network mode "record" (spout run-action --network record, or network_mode on POST /v1/actions/run), or add it to the action's cassette (GET/PUT /v1/components/${owner}/cassette)`;
}

/** The masker of a component's credentials: its `$auth` fields that hold secrets (hosts and ids stay readable) and its secret prop values. */
export function maskerFor(auth: Record<string, unknown>, secretValues: unknown[]): Masker {
  return new Masker([...secretFields(auth), ...secretValues]);
}
