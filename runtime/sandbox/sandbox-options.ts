// What a sandbox (sandbox.ts) is given to run one component, and what an invocation comes to.

import type { DataStoreCall, EmitPayload, HostGrants, HostMessage, HttpResponsePayload, LogLevel, NetworkAnswer, SerializedError } from '../contract/host-protocol';
import type { CallRequest, OutgoingCall } from '../contract/network-api';
import type { SourceDb } from '../store/source-dbs';
import type { EmitIntake, EmitsHandler } from './emit-intake';
import type { HostParking } from './host-parking';
import type { HostPool } from './host-pool';
import type { HostExit } from './host-process';
import type { TempFolder } from './temp-folder';

/** A log line written by component code. */
export interface SandboxLog {
  invocationId: string | null;
  level: LogLevel;
  message: string;
}

export interface SandboxOptions {
  bundle: string;
  filename: string;
  /** Where hosts come from (and their memory limit). */
  hosts: HostPool;
  /** Folders the host may read or write beyond the defaults. */
  grants?: HostGrants;
  /** The host's own temp folder (temp-folder.ts), which its code reaches as `/tmp`; it lies in a folder `grants` gives it to write. */
  temp?: TempFolder;
  /**
   * The owner's own folder (its `dir` props' and `temp`'s), when `grants` name nothing else and
   * no other host of the owner needs it now: a spare host may take it (host-pool.ts), moved into
   * its neutral folder while it runs. Asked at each host start.
   */
  own?: () => string | undefined;
  /** Names the component in messages, e.g. `source dc_… "Echo"`. */
  label: string;
  /** A run or hook longer than this is stopped and its host replaced. */
  timeoutMs: number;
  /** Most invocations waiting or running; more are refused. */
  maxQueue: number;
  /** The source's `this.db`; without one, `this.db` lives in the host only (configuration forms). */
  db?: SourceDb;
  /** Parks its host when idle (deployed sources: host-parking.ts); without it the host runs until closed. */
  parking?: HostParking;
  /** Start a new host as soon as one ends unexpectedly, not at the next invocation (deployed sources). */
  keepWarm?: boolean;
  onLog: (log: SandboxLog) => void;
  /** Emits made outside any invocation (after a run ended); they count against the hosts' budget until a promise returned settles. */
  onStrayEmits: (emits: EmitPayload[]) => Promise<unknown> | void;
  /** Performs component code's data store calls (on the stores its context allows); absent, they fail with a message. */
  onDataStore?: (storeId: string, call: DataStoreCall) => Promise<unknown>;
  /** Finds the recording that answers an outgoing call in a replay mode; absent, nothing is recorded. */
  onNetworkMatch?: (request: CallRequest) => NetworkAnswer;
  /** A host ended without the service asking (crash, memory, timeout, protocol). */
  onHostExit?: (exit: HostExit) => void;
  /** A test's clock (`spout/testing`): hosts start with it at this time (moved with `clock` invocations). */
  clock?: { nowMs: number };
}

/** How an invocation ended. */
export interface InvocationResult {
  invocationId: string;
  error: SerializedError | null;
  emits: EmitPayload[];
  /** What an `options` or `additionalProps` invocation returned. */
  value?: unknown;
  /** Set when the run did not end by itself: stopped at its timeout, or its host ended under it. */
  failure?: 'timeout' | 'crashed';
  /** Its outgoing HTTP calls, as the host saw them (not masked yet). */
  calls: OutgoingCall[];
  /** A test clock's time when it ended. */
  clockMs?: number;
}

/** An invocation waiting for its host; once it ends it holds nothing (see `finish`). */
export interface PendingInvocation {
  message: (HostMessage & { type: 'invoke' }) | null;
  resolve: ((result: InvocationResult) => void) | null;
  onRespond?: (response: HttpResponsePayload) => void;
  /** Takes a run's batches of emits as they come (see `invokeThen`). */
  onEmits?: EmitsHandler;
  /** Its batches of emits so far, once one came. */
  intake?: EmitIntake;
  /** Settles once its result has been handled (`invokeThen`): until then its message counts against the hosts' budget. */
  handled: Promise<unknown>;
}
