import { type Request, Router } from 'express';
import { z } from 'zod';
import type { DataStoreRecordView, DataStoreView } from '../../contract/component-api';
import type { Page } from '../../lib/pagination';
import { pageParams, paginate } from '../../lib/pagination';
import { MAX_NAME_LENGTH } from '../../store/data-store-values';
import type { DataStoreInfo } from '../../store/data-stores';
import { HttpError, notFound } from '../edge/error-statuses';
import type { ApiContext } from './api-context';
import { params, parseParams } from './params';

export const nameSchema = z.object({ name: z.string().trim().min(1, 'must not be empty').max(MAX_NAME_LENGTH) });

/** A TTL from JSON, or from the query string as text; null or absent means none. */
const ttlParam = z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v === '' ? undefined : v), z.number().nullable().optional());

export const putRecordSchema = z.object({ value: z.unknown(), ttl: ttlParam });

type RecordItem = { key: string; value: unknown; expiresAt: number | null };

function recordView(r: RecordItem): DataStoreRecordView {
  return { key: r.key, value: r.value, expires_at: r.expiresAt === null ? null : r.expiresAt / 1000 };
}

/**
 * One page of records ordered by key. Cursors are keys, and work like `paginate`'s: `before`
 * gives the records after that key (the next page), `after` those before it. A cursor need not
 * exist any more, so deleting records while paging through them skips nothing.
 */
function pageByKey(records: RecordItem[], page: z.infer<typeof pageParams>): Page<DataStoreRecordView> {
  const sorted = records.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const firstFrom = (test: (key: string) => boolean) => {
    const i = sorted.findIndex((r) => test(r.key));
    return i === -1 ? sorted.length : i;
  };
  let start = 0;
  let end = sorted.length;
  if (page.before !== undefined) {
    const cursor = page.before;
    start = firstFrom((k) => k > cursor);
  }
  if (page.after !== undefined) {
    const cursor = page.after;
    end = firstFrom((k) => k >= cursor);
    start = Math.max(start, end - page.limit);
  }
  const slice = sorted.slice(start, Math.min(end, start + page.limit));
  return {
    page_info: { total_count: sorted.length, count: slice.length, start_cursor: slice[0]?.key ?? null, end_cursor: slice[slice.length - 1]?.key ?? null },
    data: slice.map(recordView),
  };
}

/** The record key of `/records/*key`: the rest of the path, so keys may contain `/`. */
function keyParam(req: Request): string {
  const raw = (req.params as Record<string, string | string[] | undefined>).key;
  const key = Array.isArray(raw) ? raw.join('/') : (raw ?? '');
  if (key === '') throw new HttpError(400, 'a record key is required: /v1/data_stores/{id}/records/{key}');
  return key;
}

/** Account-level key-value stores (`ds_…`) behind `data_store` props, and their records. */
export function dataStoreRoutes(ctx: ApiContext): Router {
  const router = Router();
  const stores = ctx.dataStores;

  const view = async (s: DataStoreInfo): Promise<DataStoreView> => ({ id: s.id, name: s.name, record_count: await stores.count(s.id), created_at: s.created_at });
  /** The store named in the path, or a 404. */
  const storeOf = async (req: Request): Promise<DataStoreInfo> => {
    const id = String(req.params.id);
    const store = await stores.find(id);
    if (!store) throw notFound('data store', id);
    return store;
  };

  router.post('/data_stores', async (req, res) => {
    const input = parseParams(req, nameSchema);
    res.json({ data: await view(await stores.create(input.name)) });
  });

  router.get('/data_stores', async (req, res) => {
    const page = paginate(await stores.list(), parseParams(req, pageParams), (s) => s);
    res.json({ ...page, data: await Promise.all(page.data.map(view)) });
  });

  router.get('/data_stores/:id', async (req, res) => {
    res.json({ data: await view(await storeOf(req)) });
  });

  router.put('/data_stores/:id', async (req, res) => {
    const store = await storeOf(req);
    const input = parseParams(req, nameSchema);
    res.json({ data: await view(await stores.rename(store.id, input.name)) });
  });

  router.delete('/data_stores/:id', async (req, res) => {
    const store = await storeOf(req);
    // As with accounts: removing a store under a source would make its next run fail.
    const users = ctx.metadata.data.sources.filter((s) => Object.values(s.configured_props).some((v) => (v as { dataStore?: unknown } | null)?.dataStore === store.id));
    if (users.length > 0) {
      throw new HttpError(409, `data store ${store.id} is used by ${users.map((s) => s.id).join(', ')}; reconfigure or delete those sources first`);
    }
    await stores.remove(store.id);
    res.status(204).end();
  });

  router.get('/data_stores/:id/records', async (req, res) => {
    const store = await storeOf(req);
    res.json(pageByKey(await stores.records(store.id), parseParams(req, pageParams)));
  });

  router.delete('/data_stores/:id/records', async (req, res) => {
    const store = await storeOf(req);
    await stores.clear(store.id);
    res.status(204).end();
  });

  router.get('/data_stores/:id/records/*key', async (req, res) => {
    const store = await storeOf(req);
    const key = keyParam(req);
    const record = await stores.record(store.id, key);
    if (!record) throw new HttpError(404, `data store ${store.id} has no record with key "${key}" (it may have expired)`);
    res.json({ data: recordView(record) });
  });

  router.put('/data_stores/:id/records/*key', async (req, res) => {
    const store = await storeOf(req);
    const key = keyParam(req);
    if (params(req).value === undefined) {
      throw new HttpError(400, 'value is required: send {"value": <any JSON>, "ttl": <seconds, optional>}');
    }
    const input = parseParams(req, putRecordSchema);
    await stores.set(store.id, key, input.value, { ttl: input.ttl ?? null });
    const record = await stores.record(store.id, key);
    // A record set with a sub-millisecond TTL may be gone already; the view still shows what was written.
    const ttl = input.ttl ?? null;
    res.json({ data: recordView(record ?? { key, value: input.value, expiresAt: ttl === null ? null : Date.now() + ttl * 1000 }) });
  });

  router.delete('/data_stores/:id/records/*key', async (req, res) => {
    const store = await storeOf(req);
    const key = keyParam(req);
    if (!(await stores.delete(store.id, key))) throw new HttpError(404, `data store ${store.id} has no record with key "${key}"`);
    res.status(204).end();
  });

  return router;
}
