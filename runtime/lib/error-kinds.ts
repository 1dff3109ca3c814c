// The kinds of error a user can be answered with, thrown at any layer and turned into an HTTP
// status in one place (http/edge/error-statuses.ts). They live here, at the bottom, so a store or
// the sandbox can throw one without importing the layer that answers it.

/** A source cannot run: its component did not load (after a restart, say). */
export class SourceUnavailable extends Error {}

/** A lifecycle hook threw; the call that ran it fails with this message and nothing changes. */
export class HookError extends Error {}
