// A source's saved test payloads (`/v1/sources/{id}/payloads[/{name}]`), and the request run now
// sends it when given none (`GET /v1/sources/{id}/run/request`).
import { Router } from 'express';
import type { SavedPayload } from '../../contract/run-request-api';
import { MAX_SAVED_PAYLOAD_BYTES, MAX_SAVED_PAYLOADS } from '../../contract/run-request-api';
import { pageParams, paginate } from '../../lib/pagination';
import type { SourceRecord } from '../../store/metadata';
import { HttpError, notFound } from '../edge/error-statuses';
import type { ApiContext } from './api-context';
import { requestFields } from './exact-request';
import { parseParams } from './params';
import { DEFAULT_REQUEST, payloadName, runRequestView } from './run-now';

/** `POST …/payloads`: a name and a request; what is left out takes the default request's value. */
export const payloadSchema = requestFields.extend({ name: payloadName });

/** Saved payloads and the run-now request of sources. */
export function payloadRoutes(ctx: ApiContext): Router {
  const router = Router();
  const find = (idOrSlug: string): SourceRecord => {
    const s = ctx.sources.find(idOrSlug);
    if (!s) throw notFound('source', idOrSlug);
    return s;
  };
  const missing = (source: SourceRecord, name: string) => new HttpError(404, `${source.id} has no saved payload named "${name}"; GET /v1/sources/${source.id}/payloads lists them`);
  /** The payload as saved: given fields over the default request's, within the size limit. */
  const payloadOf = (name: string, fields: Partial<SavedPayload>, now: number): SavedPayload => {
    const payload: SavedPayload = {
      name,
      method: (fields.method ?? DEFAULT_REQUEST.method).toUpperCase(),
      path: fields.path ?? DEFAULT_REQUEST.path,
      query: (fields.query ?? DEFAULT_REQUEST.query).replace(/^\?/, ''),
      headers: fields.headers ?? { ...DEFAULT_REQUEST.headers },
      body: fields.body ?? DEFAULT_REQUEST.body,
      created_at: now,
      updated_at: now,
    };
    const size = Buffer.byteLength(JSON.stringify(payload));
    if (size > MAX_SAVED_PAYLOAD_BYTES) throw new HttpError(413, `saved payload "${name}" is ${Math.ceil(size / 1024)} KB; a saved payload (its body and headers) is at most ${MAX_SAVED_PAYLOAD_BYTES / 1024} KB: save a smaller body, or send this one with run now without saving it`);
    return payload;
  };
  const full = (source: SourceRecord) => new HttpError(409, `${source.id} already has ${MAX_SAVED_PAYLOADS} saved payloads, the most a source keeps; delete one (DELETE /v1/sources/${source.id}/payloads/NAME) or replace one with PUT`);

  router.get('/sources/:id/run/request', (req, res) => {
    res.json({ data: runRequestView(ctx, find(req.params.id)) });
  });

  router.get('/sources/:id/payloads', (req, res) => {
    const source = find(req.params.id);
    // Newest first, as every list; the name is the cursor.
    const items = [...ctx.payloads.list(source.id)].reverse().map((p) => ({ id: p.name, p }));
    res.json(paginate(items, parseParams(req, pageParams), (i) => i.p));
  });

  router.get('/sources/:id/payloads/:name', (req, res) => {
    const source = find(req.params.id);
    const payload = ctx.payloads.get(source.id, req.params.name);
    if (!payload) throw missing(source, req.params.name);
    res.json({ data: payload });
  });

  router.post('/sources/:id/payloads', async (req, res) => {
    const source = find(req.params.id);
    const { name, ...fields } = parseParams(req, payloadSchema);
    if (ctx.payloads.get(source.id, name)) throw new HttpError(409, `${source.id} already has a saved payload named "${name}"; replace it with PUT /v1/sources/${source.id}/payloads/${encodeURIComponent(name)}`);
    const payload = payloadOf(name, fields, Math.floor(Date.now() / 1000));
    if (ctx.payloads.list(source.id).length >= MAX_SAVED_PAYLOADS) throw full(source);
    res.json({ data: await ctx.payloads.put(source.id, payload) });
  });

  router.put('/sources/:id/payloads/:name', async (req, res) => {
    const source = find(req.params.id);
    const parsed = payloadName.safeParse(req.params.name);
    if (!parsed.success) throw new HttpError(400, `name: ${parsed.error.issues[0]?.message}`);
    const name = parsed.data;
    const payload = payloadOf(name, parseParams(req, requestFields), Math.floor(Date.now() / 1000));
    if (!ctx.payloads.get(source.id, name) && ctx.payloads.list(source.id).length >= MAX_SAVED_PAYLOADS) throw full(source);
    res.json({ data: await ctx.payloads.put(source.id, payload) });
  });

  router.delete('/sources/:id/payloads/:name', async (req, res) => {
    const source = find(req.params.id);
    if (!(await ctx.payloads.delete(source.id, req.params.name))) throw missing(source, req.params.name);
    res.status(204).end();
  });

  return router;
}
