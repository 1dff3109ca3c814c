import express, { Router, type Request, type Response } from 'express';
import type { SourceManager } from '../sources/source-manager';
import type { HttpResponsePayload } from '../sandbox/protocol';
import { sendProblem } from '../api/problem';

/** The event a `$.interface.http` source receives (spec 2.9). */
export interface HttpEvent {
  method: string;
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  bodyRaw: string;
  body: unknown;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS',
  'access-control-max-age': '86400',
};

function parseBody(req: Request, raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  const text = raw.toString('utf8');
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  if (type.startsWith('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  return text;
}

function sendResponse(res: Response, r: HttpResponsePayload): void {
  res.status(r.status);
  for (const [k, v] of Object.entries(r.headers)) res.setHeader(k, v);
  res.end(r.body === null ? undefined : typeof r.body === 'string' ? r.body : Buffer.from(r.body));
}

/**
 * HTTP interface endpoints `/e/{endpoint_id}[/sub/path]`: any method, answered once the run has
 * ended and what it emitted is stored, or by the component itself with `respond()`.
 */
export function httpInterfaceRoutes(sources: SourceManager, bodyLimit: number): Router {
  const router = Router();
  router.use(express.raw({ type: () => true, limit: bodyLimit }));

  const handle = async (req: Request, res: Response) => {
    res.set(CORS);
    const endpointId = String(req.params.endpointId);
    const target = sources.byEndpoint(endpointId);
    if (!target || !target.source.active) {
      return sendProblem(res, 404, `no active source has the endpoint ${endpointId}`);
    }
    if (req.method === 'OPTIONS') {
      res.set('access-control-allow-headers', req.headers['access-control-request-headers'] ?? '*');
      return res.status(204).end();
    }
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const rest = (req.params as Record<string, string[] | string | undefined>).rest;
    const event: HttpEvent = {
      method: req.method,
      path: '/' + (Array.isArray(rest) ? rest.join('/') : (rest ?? '')),
      query: req.query as Record<string, unknown>,
      headers: req.headers,
      bodyRaw: raw.toString('utf8'),
      body: parseBody(req, raw),
    };
    let responded = false;
    const result = await sources.invoke(target.source, event, (r) => {
      if (responded || res.headersSent) return;
      responded = true;
      sendResponse(res, r);
    });
    if (responded || res.headersSent) return;
    if (target.customResponse) {
      const why = result.error ? `its run failed: ${result.error.message}` : 'its run ended without calling respond()';
      return sendProblem(res, 502, `the source did not respond: ${why}`);
    }
    res.status(200).json({ success: true });
  };

  router.all('/:endpointId', handle);
  router.all('/:endpointId/*rest', handle);
  return router;
}
