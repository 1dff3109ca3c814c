import type { Request } from 'express';
import { z } from 'zod';

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

/** An object given as JSON, or as a JSON string in the query string. */
export const objectParam = z.preprocess((v) => {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}, z.record(z.string(), z.unknown()));
