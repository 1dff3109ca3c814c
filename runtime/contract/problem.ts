// The body of every error answer of the service (`application/problem+json`, RFC 9457), read by
// the CLI, the renderer and scripts alike.
import type { VersionConflictView } from './change-api';
import type { InvocationView } from './invocation-api';

/** One problem with one field of the request (a prop, a parameter, a line of component code). */
export interface FieldProblem {
  path: string;
  message: string;
}

/** An error answer: `error` repeats `detail` for Pipedream clients, which read `error`. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  error: string;
  /** Every problem of a validation error, each at its path. */
  errors?: FieldProblem[];
  /** Rules Pipedream tolerates that the component does not follow (it loads anyway). */
  warnings?: FieldProblem[];
  /** A 409 for a change based on an older version: both versions, and who made the current one. */
  conflict?: VersionConflictView;
  /** A failed deploy's hook run (its logs and calls): the source it belonged to was not kept. */
  run?: InvocationView;
}
