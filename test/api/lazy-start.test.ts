// Issue 44 point 3: a start reads no source's events, runs or logs before it answers. Each source's
// stores open on its first use (and the rest in the background); a request that arrives while its
// source's stores open waits for them and gets its answer, and lists and cursors read the same as
// before the restart. The service runs in this process, so that one source's event file can be held
// unread (EventStore.openSource waits for the test) while the rest of the service is used.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { type RunningService, startService } from '../../runtime/service';
import { EventStore } from '../../runtime/store/event-store';
import { ECHO_SOURCE, tempDir } from '../helpers/service';

const KEY = 'lazy-start-key';

/** Sources whose event file may not be read yet, and what releases each. */
const held = new Map<string, { until: Promise<void>; release: () => void }>();
/** Sources whose event file was opened, in order. */
const opened: string[] = [];
const openSource = EventStore.prototype.openSource;
EventStore.prototype.openSource = async function (this: EventStore, sourceId: string) {
  opened.push(sourceId);
  await held.get(sourceId)?.until;
  return openSource.call(this, sourceId);
};
after(() => {
  EventStore.prototype.openSource = openSource;
});

function hold(sourceId: string): () => void {
  let release = () => {};
  const until = new Promise<void>((resolve) => (release = resolve));
  held.set(sourceId, { until, release });
  return () => {
    held.delete(sourceId);
    release();
  };
}

async function api(service: RunningService, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(service.url + path, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

async function post(url: string, body: unknown): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await res.arrayBuffer();
  return res.status;
}

/** Every page of a list, `limit` at a time, following `end_cursor`: the items' ids in order. */
async function allPages(service: RunningService, path: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let before = '';
  for (;;) {
    const page = await api(service, 'GET', `${path}?limit=${limit}${before ? `&before=${before}` : ''}`);
    assert.equal(page.status, 200, JSON.stringify(page.json));
    ids.push(...(page.json.data as Array<{ id: string }>).map((d) => d.id));
    if (page.json.data.length < limit || !page.json.page_info.end_cursor) return ids;
    before = page.json.page_info.end_cursor as string;
  }
}

/** What a source shows: its events and runs, page by page, and its log. */
async function shown(service: RunningService, id: string): Promise<unknown> {
  return {
    events: await allPages(service, `/v1/sources/${id}/event_summaries`, 2),
    runs: await allPages(service, `/v1/sources/${id}/invocations`, 3),
    logs: (await api(service, 'GET', `/v1/sources/${id}/logs`)).json.data,
  };
}

describe('a start that reads stores on first use (issue 44)', () => {
  const dataDir = tempDir();
  const services: RunningService[] = [];
  const start = async () => {
    const service = await startService({ port: 0, dataDir, apiKey: KEY });
    services.push(service);
    return service;
  };
  after(async () => {
    for (const release of [...held.values()].map((h) => h.release)) release();
    for (const s of services) await s.stop();
  });

  it('answers /v1 and /e/ before a source is read, holds its requests until it is, and lists the same after', async () => {
    const first = await start();
    const deployed: Array<{ id: string; endpoint: string }> = [];
    for (let i = 0; i < 3; i++) {
      const res = await api(first, 'POST', '/v1/sources', { component_code: ECHO_SOURCE });
      assert.equal(res.status, 200, JSON.stringify(res.json));
      deployed.push({ id: res.json.data.id, endpoint: res.json.data.configured_props.http.endpoint_url });
    }
    const [a, b, c] = deployed as [{ id: string; endpoint: string }, { id: string; endpoint: string }, { id: string; endpoint: string }];
    for (let n = 0; n < 5; n++) for (const s of deployed) assert.equal(await post(s.endpoint, { n }), 200);
    const before = { a: await shown(first, a.id), b: await shown(first, b.id), c: await shown(first, c.id) };
    await first.stop();

    // The background opening begins with the first source; held, it reaches no other.
    const releaseA = hold(a.id);
    opened.length = 0;
    const second = await start();
    assert.equal((await api(second, 'GET', '/v1/users/me/sources')).json.data.length, 3);
    assert.equal(await post(b.endpoint.replace(/^http:\/\/[^/]+/, second.url), { n: 'after' }), 200, "b's endpoint answers while a's events are unread");
    assert.ok(!opened.includes(c.id), `c's events are not read before it is used (opened: ${opened.join(', ')})`);

    let answered = false;
    const aEvents = api(second, 'GET', `/v1/sources/${a.id}/event_summaries?limit=100`).then((r) => ((answered = true), r));
    // Another source's request, sent after it, is answered while a's waits for its events.
    assert.equal((await api(second, 'GET', `/v1/sources/${b.id}/event_summaries?limit=1`)).status, 200);
    assert.equal(answered, false, "a's list waits for a's events");
    releaseA();
    const listed = await aEvents;
    assert.equal(listed.status, 200, JSON.stringify(listed.json));
    assert.equal(listed.json.data.length, 5);

    const afterRestart = { a: await shown(second, a.id), b: await shown(second, b.id), c: await shown(second, c.id) };
    assert.deepEqual(afterRestart.a, before.a);
    assert.deepEqual(afterRestart.c, before.c);
    const bNow = afterRestart.b as { events: string[]; runs: string[] };
    const bBefore = before.b as { events: string[]; runs: string[] };
    assert.deepEqual(bNow.events.slice(1), bBefore.events, "b's events: the new one, then those from before");
    assert.deepEqual(bNow.runs.slice(1), bBefore.runs);
  });

  it('a run by id, read through a route over every source, waits for the stores it needs', async () => {
    const service = services[services.length - 1] as RunningService;
    await service.stop();
    const source = (await api(await start(), 'GET', '/v1/users/me/sources')).json.data[0] as { id: string };
    const restarted = services[services.length - 1] as RunningService;
    const runs = (await api(restarted, 'GET', `/v1/sources/${source.id}/invocations?limit=1`)).json.data as Array<{ id: string }>;
    await restarted.stop();
    // Held: the background opening waits on this source; a lookup by run id waits with it.
    const release = hold(source.id);
    const third = await start();
    let answered = false;
    const lookup = api(third, 'GET', `/v1/invocations/${runs[0]?.id}`).then((r) => ((answered = true), r));
    assert.equal((await api(third, 'GET', '/v1/users/me/sources')).status, 200);
    assert.equal(answered, false);
    release();
    const found = await lookup;
    assert.equal(found.status, 200, JSON.stringify(found.json));
    assert.equal(found.json.data.owner_id, source.id);
  });
});
