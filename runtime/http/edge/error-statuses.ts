import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler, Response } from 'express';
import { z } from 'zod';
import { ComponentError } from '../../components/bundle';
import { type ComponentProblem } from '../../contract/component-shape';
import { HookError, QueueFullError, SourceUnavailable } from '../../engine/sources/source-manager';
import { ConfigurationRejected } from '../../engine/sources/dynamic-props';
import { DataStoreError } from '../../store/data-store-values';

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

/** The JSON of a problem: `{type, title, status, detail, error[, errors][, warnings]}` (`error` repeats `detail` for Pipedream clients). */
export function problemBody(status: number, detail: string, errors?: ComponentProblem[], warnings?: ComponentProblem[]): string {
  return JSON.stringify({
    type: 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    error: detail,
    ...(errors ? { errors } : {}),
    ...(warnings?.length ? { warnings } : {}),
  });
}

/** Answers with an `application/problem+json` body (see problemBody). */
export function sendProblem(res: Response, status: number, detail: string, errors?: ComponentProblem[], warnings?: ComponentProblem[]): void {
  res.status(status).type('application/problem+json').send(problemBody(status, detail, errors, warnings));
}

/** Maps every error reaching express to a problem response; only unexpected ones are 500. */
export const errorHandler: ErrorRequestHandler = (err: unknown, _req, res, _next) => {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (err instanceof HttpError) return sendProblem(res, err.status, err.message, err.errors);
  if (err instanceof ComponentError) return sendProblem(res, 400, `invalid component: ${err.message}`, err.problems, err.warnings);
  if (err instanceof HookError || err instanceof ConfigurationRejected) return sendProblem(res, 400, err.message);
  if (err instanceof QueueFullError) return sendProblem(res, 429, err.message);
  if (err instanceof SourceUnavailable) return sendProblem(res, 503, err.message);
  if (err instanceof DataStoreError) return sendProblem(res, err.status, err.message);
  if (err instanceof z.ZodError) {
    const errors = err.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    return sendProblem(res, 400, errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; '), errors);
  }
  const e = err as { type?: string; status?: number; message?: string };
  // Errors from body-parser carry a status: malformed JSON (400), too large (413), bad charset (415).
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    const detail = e.type === 'entity.parse.failed' ? `the request body is not valid JSON: ${e.message}` : e.type === 'entity.too.large' ? 'the request body is too large' : (e.message ?? 'bad request');
    return sendProblem(res, e.status, detail);
  }
  console.error(err);
  sendProblem(res, 500, 'internal error; the service log has the details');
};
