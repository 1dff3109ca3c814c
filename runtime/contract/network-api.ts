// /v1 shapes of outgoing calls and cassettes (record and replay).
import type { RecordedBody } from './invocation-api';

/**
 * How a component's outgoing HTTP calls are served: for real, saved to its cassette, answered from
 * it, from it where it can, or (`discover`) from it where it can and else with an empty success,
 * each such call listed in the run's calls (`served_by: 'discovery'`) to write a cassette from.
 */
export const NETWORK_MODES = ['live', 'record', 'replay', 'replay-or-live', 'discover'] as const;

/** One of NETWORK_MODES. */
export type NetworkMode = (typeof NETWORK_MODES)[number];

/** An outgoing HTTP call's request, as recorded (credentials masked). */
export interface CallRequest extends RecordedBody {
  method: string;
  url: string;
  headers: Record<string, string>;
}

/** An outgoing HTTP call's response, as recorded or mocked (credentials masked). */
export interface CallResponse extends RecordedBody {
  status: number;
  headers: Record<string, string>;
}

/** One outgoing HTTP call a run made (`InvocationView.calls`). */
export interface OutgoingCall {
  request: CallRequest;
  /** Null when no response came (a network error, or a replay with nothing recorded). */
  response: CallResponse | null;
  /** What went wrong when there is no response. */
  error: string | null;
  duration_ms: number;
  /** `live`: it went out; `cassette`: answered from the source's cassette (entry `entry`); `fault`: made to fail by a test (`spout/testing`'s `network.fail`); `discovery`: not in the cassette, answered with an empty success in network mode `discover`. */
  served_by: 'live' | 'cassette' | 'fault' | 'discovery';
  entry: number | null;
}

/** How recorded calls are matched to new ones in replay. */
export interface CassetteMatching {
  /** Query parameters left out when comparing URLs (timestamps, page tokens, nonces). */
  ignore_query: string[];
  /** Compare request bodies too. */
  body: boolean;
  /**
   * `sequence`: calls to the same request get the recordings in the order they were made (a feed
   * polled again gets its next recording; the last one repeats); `content`: any recording of the
   * same request answers.
   */
  order: 'sequence' | 'content';
}

/** One recorded (or hand-written) call. */
export interface CassetteEntry {
  request: CallRequest;
  response: CallResponse;
  /** Epoch ms; null for an entry written by hand. */
  recorded_at: number | null;
}

/** A source's (or an action's) recorded calls: a plain file, reviewable and committable (`NAME.cassette.json`). */
export interface Cassette {
  version: 1;
  matching: CassetteMatching;
  entries: CassetteEntry[];
}
