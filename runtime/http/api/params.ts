import type { Request } from 'express';
import { z } from 'zod';
import { MAX_JSON_DEPTH, nestsDeeperThan, tooDeepMessage } from '../../lib/json-depth';
import { HttpError } from '../edge/error-statuses';

/** Request parameters: the query string and a JSON body merged, the body winning (docs/api.md). */
export function params(req: Request): Record<string, unknown> {
  const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
  return { ...(req.query as Record<string, unknown>), ...body };
}

/** Parses the request's parameters with `schema`; a mismatch becomes a 400 listing each problem. */
export function parseParams<S extends z.ZodType>(req: Request, schema: S): z.infer<S> {
  return schema.parse(params(req));
}

/** A boolean given as JSON or as a query string (`true`/`false`/`1`/`0`). */
export const booleanParam = z.preprocess((v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v), z.boolean());

/**
 * JSON text from a query string or a field, parsed (a SyntaxError for text that is not JSON); a
 * document nested deeper than MAX_JSON_DEPTH is a 400 naming `what`, as a body would be (edge/json-body.ts).
 */
export function parseJsonText(text: string, what: string): unknown {
  const value: unknown = JSON.parse(text);
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) throw new HttpError(400, tooDeepMessage(what));
  return value;
}

/** An object given as JSON, or as a JSON string in the query string. */
export const objectParam = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v;
    try {
      return parseJsonText(v, 'a JSON query parameter');
    } catch (err) {
      if (err instanceof HttpError) throw err;
      return v;
    }
  },
  z.record(z.string(), z.unknown()),
);
