// The JSON parser of every route that takes JSON (/v1, the Connect API, /mcp): express.json, then
// the depth check, so that no route stringifies or walks a document deep enough to overflow the stack.
import express, { type RequestHandler } from 'express';
import { MAX_JSON_DEPTH, nestsDeeperThan, tooDeepMessage } from '../../lib/json-depth';
import { HttpError } from './error-statuses';

/** Refuses a parsed body nested deeper than MAX_JSON_DEPTH with a 400 naming the limit. */
const depthGuard: RequestHandler = (req, _res, next) => {
  next(nestsDeeperThan(req.body, MAX_JSON_DEPTH) ? new HttpError(400, tooDeepMessage('the request body')) : undefined);
};

/** express.json with `options`, followed by the depth check. */
export function jsonBody(options: { limit: string; strict?: boolean }): RequestHandler[] {
  return [express.json(options), depthGuard];
}
