// The one table from errors to HTTP statuses, and the one problem+json body (contract/problem.ts)
// every error answer of the service carries: the /v1 API's, the /e/ endpoints', the edge's own.
import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler, Response } from 'express';
import { z } from 'zod';
import type { VersionConflictView } from '../../contract/change-api';
import type { ComponentProblem } from '../../contract/component-shape';
import type { InvocationView } from '../../contract/invocation-api';
import type { Problem } from '../../contract/problem';
import { ComponentError, ConfigurationRejected, ConfigurationRequestError, DataStoreError, FetchCodeError, HookError, QueueFullError, SourceUnavailable, StoredContentMissing, VersionConflict } from '../../lib/error-kinds';

/** An error the API answers with its own status and message. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: ComponentProblem[],
  ) {
    super(message);
  }
}

/** 404 naming the missing resource. */
export function notFound(kind: string, id: string): HttpError {
  return new HttpError(404, `${kind} ${id} was not found`);
}

/** What an error is answered with: the fields of its problem that vary. */
export interface ErrorAnswer {
  status: number;
  detail: string;
  errors?: ComponentProblem[];
  warnings?: ComponentProblem[];
  conflict?: VersionConflictView;
  run?: InvocationView;
}

/** Every error nobody expected: the details go to the service's log, not to the caller. */
const UNEXPECTED: ErrorAnswer = { status: 500, detail: 'internal error; the service log has the details' };

/** The answer to an error kind (lib/error-kinds.ts), or null for an unexpected error. */
function answerOf(err: unknown): ErrorAnswer | null {
  if (err instanceof HttpError) return { status: err.status, detail: err.message, errors: err.errors };
  if (err instanceof ComponentError) return { status: 400, detail: `invalid component: ${err.message}`, errors: err.problems, warnings: err.warnings };
  if (err instanceof HookError) return { status: 400, detail: err.message, ...(err.run ? { run: err.run } : {}) };
  if (err instanceof ConfigurationRejected || err instanceof ConfigurationRequestError || err instanceof FetchCodeError) return { status: 400, detail: err.message };
  if (err instanceof DataStoreError) return { status: err.status, detail: err.message };
  if (err instanceof QueueFullError) return { status: 429, detail: err.message };
  if (err instanceof SourceUnavailable || err instanceof StoredContentMissing) return { status: 503, detail: err.message };
  if (err instanceof VersionConflict) return { status: 409, detail: err.message, conflict: err.conflict };
  if (err instanceof z.ZodError) {
    const errors = err.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    return { status: 400, detail: errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; '), errors };
  }
  const e = err as { type?: string; status?: number; message?: string };
  // Errors of express and body-parser carry a status: malformed JSON (400), too large (413), bad charset (415), a bad route param (400).
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    const detail = e.type === 'entity.parse.failed' ? `the request body is not valid JSON: ${e.message}` : e.type === 'entity.too.large' ? 'the request body is too large' : (e.message ?? 'bad request');
    return { status: e.status, detail };
  }
  if (err instanceof URIError) return { status: 400, detail: 'the request path is not valid percent-encoding' };
  return null;
}

/** What an error is answered with; an unexpected one is logged and answered 500. */
export function errorAnswer(err: unknown): ErrorAnswer {
  const answer = answerOf(err);
  if (answer) return answer;
  console.error(err);
  return UNEXPECTED;
}

/** The JSON of a problem: `{type, title, status, detail, error[, errors][, warnings][, conflict][, run]}` (`error` repeats `detail` for Pipedream clients). */
export function problemBody(status: number, detail: string, errors?: ComponentProblem[], warnings?: ComponentProblem[], conflict?: VersionConflictView, run?: InvocationView): string {
  const problem: Problem = {
    type: 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    error: detail,
    ...(errors ? { errors } : {}),
    ...(warnings?.length ? { warnings } : {}),
    ...(conflict ? { conflict } : {}),
    ...(run ? { run } : {}),
  };
  return JSON.stringify(problem);
}

/** Answers with an `application/problem+json` body (see problemBody). */
export function sendProblem(res: Response, status: number, detail: string, errors?: ComponentProblem[], warnings?: ComponentProblem[], conflict?: VersionConflictView, run?: InvocationView): void {
  res
    .status(status)
    .type('application/problem+json')
    .send(problemBody(status, detail, errors, warnings, conflict, run));
}

/** Answers every error reaching express with its problem (see errorAnswer). */
export const errorHandler: ErrorRequestHandler = (err: unknown, _req, res, _next) => {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const { status, detail, errors, warnings, conflict, run } = errorAnswer(err);
  sendProblem(res, status, detail, errors, warnings, conflict, run);
};
