// Each source's outgoing-call state: the masker of its credentials and its network mode, as its
// sandbox was last configured (deploy hooks included), for replay lookups and run records.

import type { NetworkAnswer, SandboxContext, SerializedError } from '../../contract/host-protocol';
import type { CallRequest, NetworkMode, OutgoingCall } from '../../contract/network-api';
import type { Masker } from '../network/masker';
import { maskerFor, type NetworkService } from '../network/network-service';

interface CallState {
  masker: Masker;
  mode: NetworkMode;
}

/** How each source's outgoing calls are masked, replayed and kept. */
export class SourceCalls {
  private readonly states = new Map<string, CallState>();

  constructor(private readonly network: NetworkService) {}

  /** Takes a source's new context: the credentials its calls must not show are its `$auth` and its secret props' values. */
  configure(sourceId: string, context: SandboxContext, secretValues: unknown[]): void {
    this.states.set(sourceId, { masker: maskerFor(context.auth, secretValues), mode: context.network });
  }

  /** The recording that answers one of the source's calls in a replay mode. */
  match(sourceId: string, request: CallRequest): NetworkAnswer {
    return this.network.match(sourceId, this.of(sourceId).masker, request);
  }

  /** A run's calls as its record keeps them (masked; in record mode, added to the cassette). */
  record(sourceId: string, calls: readonly OutgoingCall[]): OutgoingCall[] {
    const { masker, mode } = this.of(sourceId);
    return this.network.record(sourceId, mode, masker, calls);
  }

  /** Calls made while a prop set is computed (`additionalProps`), masked with the values given for it; in record mode added to the cassette. */
  recordConfiguring(sourceId: string, context: SandboxContext, secretValues: unknown[], calls: readonly OutgoingCall[]): void {
    this.network.record(sourceId, context.network, maskerFor(context.auth, secretValues), calls);
  }

  /** A log line of the source's component with its credentials masked, as its calls are (a `debug: true` request prints its config, key and all). */
  maskText(sourceId: string, text: string): string {
    return this.of(sourceId).masker.text(text);
  }

  /** A run's result with the source's credentials masked in its error's message and stacks. */
  maskResult<R extends { error: SerializedError | null }>(sourceId: string, result: R): R {
    return this.of(sourceId).masker.result(result);
  }

  /** Masks the credentials in the hand-written entries of a source's cassette (a recorded entry is masked already) and saves it: the one write of a cassette only held till now. */
  async maskHandWritten(sourceId: string): Promise<void> {
    const { masker } = this.of(sourceId);
    const cassette = this.network.cassettes.get(sourceId);
    const entries = cassette.entries.map((e) => (e.recorded_at !== null ? e : { ...e, request: masker.request(e.request), response: masker.response(e.response) }));
    await this.network.cassettes.put(sourceId, { ...cassette, entries });
  }

  /** Runs a source's deploy, its misses pointing at the deploy's cassette. */
  whileDeploying<T>(sourceId: string, deploy: () => Promise<T>): Promise<T> {
    return this.network.whileDeploying(sourceId, deploy);
  }

  /** Starts replay sequences over (the network mode changed). */
  reset(sourceId: string): void {
    this.network.reset(sourceId);
  }

  /** Forgets a removed source's state. */
  forget(sourceId: string): void {
    this.states.delete(sourceId);
  }

  private of(sourceId: string): CallState {
    return this.states.get(sourceId) ?? { masker: maskerFor({}, []), mode: 'live' };
  }
}
