// Limits on what component code may produce. Each is checked in the component's host, where the
// code gets a clear error at the call that went over, and again in the service, which trusts
// nothing a host sends. Where Pipedream states a limit, these stay close to it. docs/security.md
// lists every one.

const MB = 1024 * 1024;

/** Longest log line, in bytes (UTF-8): a longer one is cut and marked. */
export const MAX_LOG_LINE_BYTES = 64 * 1024;

/**
 * Log text one run may write, in bytes (Pipedream's function payload limit, 6 MB, counts a run's
 * logs); later lines are dropped, and one line says so.
 */
export const MAX_LOG_BYTES_PER_RUN = 6 * MB;

/** Largest event, as JSON, in bytes (Pipedream's 6 MB function payload): a larger `$emit` throws. */
export const MAX_EVENT_BYTES = 6 * MB;

/** Events one run may emit, as JSON in all, in bytes: past it `$emit` throws. */
export const MAX_EMIT_BYTES_PER_RUN = 32 * MB;

/** Longest `id` and `name` of an emitted event, in characters. */
export const MAX_EMIT_ID_LENGTH = 1024;

/** Longest `summary` of an emitted event, in characters: a longer one is cut. */
export const MAX_SUMMARY_LENGTH = 1024;

/**
 * What code left running after its run returned (a timer, a stray promise) may log or emit, per
 * minute, in bytes; the rest is dropped, and one line says so.
 */
export const MAX_STRAY_BYTES_PER_MINUTE = 6 * MB;

/** Largest `this.db` value, as JSON, in bytes (as for data store values). */
export const MAX_DB_VALUE_BYTES = 1 * MB;

/** Largest `this.db` of one source: its keys and values as JSON, in bytes. */
export const MAX_DB_BYTES = 8 * MB;

/**
 * Largest message a component host may send the service, in bytes: a run's result (its last batch
 * of emits, recorded calls and return value) travels in one. A host that sends a larger one is stopped.
 */
export const MAX_HOST_MESSAGE_BYTES = 64 * MB;

/** Most emits in one batch a host sends of a run (host-protocol.ts `run-emits`). */
export const EMIT_BATCH_COUNT = 1000;

/** A batch of a run's emits ends before its events' JSON passes this many characters (a larger event goes alone). */
export const EMIT_BATCH_CHARS = 1 * MB;

/** Batches of a run's emits a host sends ahead of the service's `emits-ack`: the next is on the way while one is stored. */
export const EMIT_BATCHES_UNACKED = 2;

/**
 * Bytes all component hosts together may have in flight to the service at once: messages read or
 * being read and not yet handled (a run's result until its events are stored). A message that
 * does not fit waits, and its host with it (sandbox/host-budget.ts). At least the largest message.
 */
export const MAX_HOSTS_IN_FLIGHT_BYTES = 128 * MB;

/** Files and sockets one component host may hold open (AWS Lambda's limit, where Pipedream runs code). */
export const MAX_HOST_FDS = 1024;

/** Default limit of a source's own folders (its `dir` props' folder and its temp folder), MB; Pipedream's /tmp holds 2 GB. */
export const DEFAULT_COMPONENT_DISK_MB = 2048;

/**
 * CPU time code left running after its run returned may use, as a share of the time that passes
 * (10%); bursts up to the source's run timeout are allowed.
 */
export const STRAY_CPU_SHARE = 0.1;

/** Default resident memory limit of one component host, MB. */
export const DEFAULT_COMPONENT_MEMORY_MB = 512;

/**
 * Emits a run's record lists, the first ones: the rest are counted (`emits_omitted`), not listed,
 * so a run emitting 200 000 events keeps a record of a few KB; every event is still stored.
 */
export const MAX_RECORDED_EMITS = 100;
