// The kinds of error a user is answered with, thrown at any layer and turned into an HTTP status
// in one place (http/edge/error-statuses.ts). They live here, at the bottom, so that a store, the
// sandbox or the engine can throw one without importing the layer that answers it.
import { CHANGE_ORIGIN_LABELS, type VersionConflictView } from '../contract/change-api';
import type { ComponentProblem } from '../contract/component-shape';
import type { InvocationView } from '../contract/invocation-api';

/** A component cannot be loaded or fails validation; carries every problem found, and the warnings found beside them. */
export class ComponentError extends Error {
  constructor(
    readonly problems: ComponentProblem[],
    readonly warnings: ComponentProblem[] = [],
  ) {
    super(problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join('; '));
    this.name = 'ComponentError';
  }
}

/** A `component_url` that could not be used; the message names the URL and what to do. */
export class FetchCodeError extends Error {}

/** Component code threw a `ConfigurationError` while its props were computed: its message is for the user as is. */
export class ConfigurationRejected extends Error {}

/** A configuration request names something the component does not have (a prop without options, say). */
export class ConfigurationRequestError extends Error {}

/** A lifecycle hook threw; the call that ran it fails with this message and nothing changes. */
export class HookError extends Error {
  constructor(
    message: string,
    /** The hook's run record: a failed deploy keeps no source, so its logs and calls travel with the error. */
    readonly run?: InvocationView,
  ) {
    super(message);
  }
}

/** A source's queue of waiting invocations is full; the caller may try again shortly. */
export class QueueFullError extends Error {}

/** A source cannot run: its component did not load (after a restart, say). */
export class SourceUnavailable extends Error {}

/** A component's code or bundle file is missing from the data dir (deleted by hand, say); the message names the file and the fix. */
export class StoredContentMissing extends Error {}

/** A failed data store call: `status` is what the API answers (400 bad input, 404 unknown store). */
export class DataStoreError extends Error {
  override name = 'DataStoreError';
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A change based on a version that is not the current one (someone else changed it meanwhile):
 * refused, naming both versions and how to replace the current one knowingly (409).
 */
export class VersionConflict extends Error {
  constructor(readonly conflict: VersionConflictView) {
    const { kind, id, name, current_version: current, base_version: base, changed_by: by, changed_at: at } = conflict;
    const who = by ? ` from ${CHANGE_ORIGIN_LABELS[by]}` : '';
    const when = new Date(at * 1000).toTimeString().slice(0, 8);
    super(`${kind} \`${name}\` (${id}) is at version ${current} (changed${who} at ${when}); this change was based on version ${base}, so it was not saved. ` + `Reload it to see version ${current}, or send the change again with base_version ${current} to replace it.`);
    this.name = 'VersionConflict';
  }
}
