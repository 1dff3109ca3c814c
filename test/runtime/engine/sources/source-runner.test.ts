import assert from 'node:assert/strict';
import { after, beforeEach, describe, it } from 'node:test';
import { ComponentLibrary } from '../../../../runtime/components/library';
import type { EndpointExchange } from '../../../../runtime/contract/endpoint-exchange';
import type { EmitPayload, HttpResponsePayload, InvocationTarget } from '../../../../runtime/contract/host-protocol';
import type { RecordedResponse } from '../../../../runtime/contract/invocation-api';
import { MAX_RECORDED_EMITS } from '../../../../runtime/contract/limits';
import { MAX_LISTENER_HOPS } from '../../../../runtime/engine/events/emission';
import { SourceCalls } from '../../../../runtime/engine/sources/source-calls';
import type { LiveSource, SourceHosts } from '../../../../runtime/engine/sources/source-hosts';
import { SourceRecords } from '../../../../runtime/engine/sources/source-records';
import { SourceRunner } from '../../../../runtime/engine/sources/source-runner';
import { SystemChannels } from '../../../../runtime/engine/sources/system-channels';
import { HookError, SourceUnavailable } from '../../../../runtime/lib/error-kinds';
import type { Sandbox } from '../../../../runtime/sandbox/sandbox';
import type { InvocationResult } from '../../../../runtime/sandbox/sandbox-options';
import type { ComponentRecord, SourceRecord } from '../../../../runtime/store/metadata';
import { type EngineStores, openEngineStores } from '../../../helpers/engine';
import { waitFor } from '../../../helpers/service';

/** What the fake component does in one invocation. */
interface Script {
  emits?: EmitPayload[];
  error?: string;
  logs?: string[];
  respond?: HttpResponsePayload;
  /** A hook the component does not define answers false. */
  value?: unknown;
}

const component: ComponentRecord = {
  id: 'sc_test',
  key: 'test-source',
  name: 'Test',
  version: '0.0.1',
  type: 'source',
  description: null,
  code: '',
  filename: 'test.mjs',
  bundle: '',
  code_hash: 'x',
  configurable_props: [],
  dedupe: 'unique',
  created_at: 0,
};

const emit = (data: unknown, meta: EmitPayload['meta'] = {}): EmitPayload => ({ json: JSON.stringify(data), meta });

let stores: EngineStores;
let runner: SourceRunner;
let source: SourceRecord;
/** What the next invocation does, and the targets invoked so far. */
let next: Script;
let invoked: InvocationTarget[];
let loaded: boolean;
let held: Promise<void>;

/** A sandbox that runs `next` instead of component code. */
function fakeSandbox(): Sandbox {
  let seq = 0;
  const invoke = async (target: InvocationTarget, onRespond?: (r: HttpResponsePayload) => void): Promise<InvocationResult> => {
    invoked.push(target);
    const invocationId = `inv_${++seq}`;
    for (const message of next.logs ?? []) stores.logs.add(source.id, { level: 'info', message, invocation_id: invocationId });
    if (next.respond) onRespond?.(next.respond);
    const error = next.error ? { name: 'Error', message: next.error, stack: `Error: ${next.error}\n    at run (test.mjs:1:1)` } : null;
    return { invocationId, error, emits: next.emits ?? [], calls: [], value: next.value };
  };
  return {
    invoke,
    invokeThen: async <T>(target: InvocationTarget, handle: (r: InvocationResult) => T | Promise<T>, onRespond?: (r: HttpResponsePayload) => void) => handle(await invoke(target, onRespond)),
  } as unknown as Sandbox;
}

/** An exchange that records what it was told; `finish` answers as the /e/ handler would. */
function exchange(replayOf: string | null = null) {
  const told = { responded: [] as HttpResponsePayload[], finished: [] as Array<string | null> };
  const ex: EndpointExchange = {
    event: { method: 'POST', path: '/', query: {}, client_ip: '127.0.0.1', url: 'http://127.0.0.1:1/e/en_1', headers: {}, bodyRaw: '{}', body: {} },
    request: { method: 'POST', path: '/', query: '', headers: {}, endpoint_url: 'http://127.0.0.1:1/e/en_1', body: '{}', body_encoding: 'utf8', body_size: 2, body_truncated: false },
    replayOf,
    hops: 0,
    respond: (r) => void told.responded.push(r),
    finish: (failure): RecordedResponse => {
      told.finished.push(failure);
      return { status: failure ? 502 : 200, headers: {}, from: 'service', body: failure ?? '', body_encoding: 'utf8', body_size: 0, body_truncated: false };
    },
  };
  return { ex, told };
}

beforeEach(async () => {
  await stores?.close();
  // Deliveries are recorded, and become durable once `held` resolves.
  held = Promise.resolve();
  stores = await openEngineStores({
    deliver: async (event, webhooks) => {
      stores.deliveries.push({ event, webhooks });
      await held;
    },
    deliverUnrecorded: async () => 0,
  });
  next = {};
  invoked = [];
  loaded = true;
  source = { id: 'dc_test', component_id: component.id, name: 'Test', name_slug: 'test', configured_props: {}, endpoints: {}, active: true, created_at: 0, updated_at: 0 };
  stores.metadata.data.components.push(component);
  stores.metadata.data.sources.push(source);
  for (const id of [source.id]) {
    await stores.events.openSource(id);
    await stores.invocations.open(id);
    await stores.logs.open(id);
  }
  const live: LiveSource = { sandbox: fakeSandbox(), component };
  const get = (id: string) => (loaded && id === source.id ? live : undefined);
  // The fake's host is never running: each run wakes it first.
  const hosts = { get, ready: async (id: string) => get(id) } as unknown as SourceHosts;
  const records = new SourceRecords(stores.metadata, new ComponentLibrary(stores.metadata));
  const channels = new SystemChannels(stores.emission, stores.logs, (id) => records.find(id) !== undefined);
  runner = new SourceRunner({ records, hosts, emission: stores.emission, dedupe: stores.dedupe, logs: stores.logs, invocations: stores.invocations, calls: new SourceCalls(stores.network), channels, storesPending: () => null });
});

after(() => stores?.close());

const subscribe = (listenerId: string, eventName: string | null = null) => stores.metadata.data.subscriptions.push({ id: `sub_${listenerId}`, emitter_id: source.id, listener_id: listenerId, event_name: eventName, created_at: 0 });

describe('SourceRunner', () => {
  it('records a run: its event, logs and emits, each emit with its event id and webhooks', async () => {
    subscribe('wh_a');
    subscribe('wh_b', 'alerts');
    next = { emits: [emit({ n: 1 }, { id: 'a', summary: 'one' }), emit({ n: 2 }, { id: 'b', name: 'alerts' })], logs: ['hello'] };
    const run = await runner.invoke(source, { tick: 1 }, { trigger: { kind: 'timer' } });

    assert.deepEqual(invoked, [{ kind: 'run', eventJson: '{"tick":1}' }]);
    assert.equal(run.record.status, 'ok');
    assert.equal(run.record.trigger, 'timer');
    assert.deepEqual(run.record.event, { tick: 1 });
    assert.deepEqual(
      run.record.logs.map((l) => l.message),
      ['hello'],
    );
    assert.deepEqual(
      run.record.emits.map((e) => ({ id: e.event_id, dropped: e.dropped, name: e.name, webhooks: e.webhooks })),
      stores.events
        .list(source.id)
        .reverse()
        .map((e, i) => ({ id: e.id, dropped: false, name: i === 0 ? null : 'alerts', webhooks: i === 0 ? ['wh_a'] : ['wh_b'] })),
    );
    assert.deepEqual(
      stores.deliveries.map((d) => [JSON.parse(d.event.json).n, d.webhooks]),
      [
        [1, ['wh_a']],
        [2, ['wh_b']],
      ],
    );
    assert.deepEqual(stores.invocations.get(run.record.id), run.record, 'the record is kept when invoke resolves');
  });

  it('marks the emits dedupe dropped, with no event and no webhooks', async () => {
    subscribe('wh_a');
    next = { emits: [emit({ n: 1 }, { id: 'same' })] };
    await runner.invoke(source, {}, { trigger: { kind: 'run_now' } });
    const again = await runner.invoke(source, {}, { trigger: { kind: 'run_now' } });
    assert.deepEqual(again.record.emits, [{ event_id: null, dropped: true, name: null, summary: null, webhooks: [] }]);
    assert.equal(stores.events.list(source.id).length, 1);
  });

  it('lists the first emits of a large run in its record and counts the rest, while every event is stored and delivered in order', async () => {
    subscribe('wh_a');
    // 2500 emits (three slices), every tenth a repeat of the one before, which dedupe drops.
    next = { emits: Array.from({ length: 2500 }, (_, i) => emit({ i }, { id: String(i % 10 === 9 ? i - 1 : i) })) };
    const run = await runner.invoke(source, {}, { trigger: { kind: 'run_now' } });
    assert.equal(run.record.emits.length, MAX_RECORDED_EMITS);
    assert.deepEqual(
      run.record.emits.slice(8, 10).map((e) => e.dropped),
      [false, true],
    );
    assert.deepEqual(run.record.emits_omitted, { stored: 2250 - 90, dropped: 250 - 10 });
    // Every event was stored and handed to delivery, in emit order (the store keeps the latest of them).
    const stored = stores.deliveries.map((d) => d.event);
    assert.deepEqual(
      stored.map((e) => JSON.parse(e.json).i),
      Array.from({ length: 2500 }, (_, i) => i).filter((i) => i % 10 !== 9),
    );
    assert.deepEqual(
      stores.events
        .list(source.id)
        .reverse()
        .map((e) => e.id),
      stored.slice(-stores.events.list(source.id).length).map((e) => e.id),
    );
    assert.deepEqual(
      run.record.emits.filter((e) => !e.dropped).map((e) => e.event_id),
      stored.slice(0, 90).map((e) => e.id),
    );
    assert.deepEqual(stores.invocations.get(run.record.id), run.record, 'the record is kept as answered');
  });

  it('stores a large run a slice at a time: the next slice waits until the deliveries of the one before are durable', async () => {
    subscribe('wh_a');
    let release = () => {};
    held = new Promise((resolve) => (release = resolve));
    next = { emits: Array.from({ length: 2500 }, (_, i) => emit({ i }, { id: String(i) })) };
    const run = runner.invoke(source, {}, { trigger: { kind: 'run_now' } });
    await waitFor(() => stores.deliveries.length >= 1000);
    // Turns of the event loop pass; nothing more is stored while the first slice is not durable.
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    assert.equal(stores.deliveries.length, 1000);
    assert.equal(stores.events.list(source.id).length, 1000);
    held = Promise.resolve();
    release();
    await run;
    assert.deepEqual(
      stores.deliveries.map((d) => JSON.parse(d.event.json).i),
      Array.from({ length: 2500 }, (_, i) => i),
    );
  });

  it('records a run that lists all its emits with no omitted count', async () => {
    next = { emits: [emit({ n: 1 })] };
    const run = await runner.invoke(source, {}, { trigger: { kind: 'run_now' } });
    assert.equal(run.record.emits_omitted, null);
  });

  it('answers an HTTP exchange once the run has ended, and records the request and the answer', async () => {
    const plain = exchange();
    const run = await runner.invoke(source, plain.ex.event, { trigger: { kind: 'http', exchange: plain.ex, customResponse: false } });
    assert.deepEqual(plain.told.finished, [null], 'a plain endpoint gets the success answer');
    assert.equal(run.record.request, plain.ex.request);
    assert.equal(run.record.response?.status, 200);
    assert.equal(run.record.event, null, 'an HTTP run keeps its request, not an event');

    next = { respond: { status: 201, headers: {}, body: 'made' } };
    const custom = exchange();
    await runner.invoke(source, custom.ex.event, { trigger: { kind: 'http', exchange: custom.ex, customResponse: true } });
    assert.deepEqual(custom.told.responded, [{ status: 201, headers: {}, body: 'made' }]);

    next = {};
    const silent = exchange();
    await runner.invoke(source, silent.ex.event, { trigger: { kind: 'http', exchange: silent.ex, customResponse: true } });
    assert.deepEqual(silent.told.finished, ['the source did not respond: its run ended without calling respond()']);

    next = { error: 'boom' };
    const failed = exchange();
    const failedRun = await runner.invoke(source, failed.ex.event, { trigger: { kind: 'http', exchange: failed.ex, customResponse: true } });
    assert.deepEqual(failed.told.finished, ['the source did not respond: its run failed: boom']);
    assert.equal(failedRun.record.response?.status, 502);
  });

  it('keeps a replayed id only when it is a run of the same source', async () => {
    const first = await runner.invoke(source, {}, { trigger: { kind: 'run_now' } });
    const replay = await runner.invoke(source, {}, { trigger: { kind: 'run_now' }, replayOf: first.record.id });
    assert.equal(replay.record.replay_of, first.record.id);
    const stranger = exchange('inv_of_someone_else');
    const foreign = await runner.invoke(source, {}, { trigger: { kind: 'http', exchange: stranger.ex, customResponse: false }, replayOf: stranger.ex.replayOf });
    assert.equal(foreign.record.replay_of, null);
  });

  it('records a failed run, logs its stack, and emits it on $errors when something listens', async () => {
    subscribe('wh_errors', '$errors');
    next = { error: 'boom' };
    const run = await runner.invoke(source, {}, { trigger: { kind: 'timer' } });
    assert.equal(run.record.status, 'error');
    assert.equal(run.record.error?.message, 'boom');
    assert.ok(stores.logs.list(source.id).some((l) => l.level === 'error' && l.message.includes('Error: boom')));
    await waitFor(() => stores.deliveries.find((d) => d.event.meta.name === '$errors'));
    const [errorEvent] = stores.deliveries.filter((d) => d.event.meta.name === '$errors');
    assert.deepEqual(errorEvent!.webhooks, ['wh_errors']);
    assert.equal(JSON.parse(errorEvent!.event.json).invocation_id, run.record.id);
  });

  it('emits nothing on $errors when nothing listens to it', async () => {
    next = { error: 'boom' };
    await runner.invoke(source, {}, { trigger: { kind: 'timer' } });
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(stores.events.list(source.id).length, 0);
  });

  it('runs a hook: records it, and fails with a HookError when it throws', async () => {
    const live = { sandbox: fakeSandbox(), component };
    await runner.hook(source.id, live, 'activate');
    next = { error: 'no credentials' };
    await assert.rejects(runner.hook(source.id, live, 'deploy'), (err: unknown) => err instanceof HookError && err.message === 'the deploy() hook failed: no credentials');
    const hooks = stores.invocations
      .list(source.id)
      .map((kept) => stores.invocations.read(kept))
      .map((r) => [r.hook, r.status]);
    assert.deepEqual(hooks, [
      ['deploy', 'error'],
      ['activate', 'ok'],
    ]);
  });

  it('records no hook the component does not define', async () => {
    next = { value: false };
    await runner.hook(source.id, { sandbox: fakeSandbox(), component }, 'deactivate');
    assert.deepEqual(stores.invocations.list(source.id), []);
  });

  it('refuses to run a source whose component is not loaded', async () => {
    loaded = false;
    await assert.rejects(runner.invoke(source, {}, { trigger: { kind: 'run_now' } }), SourceUnavailable);
  });

  it('runs a listener with the event, and stops a chain of listeners past the hop limit', async () => {
    next = { emits: [emit({ n: 1 })] };
    const run = await runner.invoke(source, {}, { trigger: { kind: 'run_now' } });
    const event = stores.events.find(source.id, run.record.emits[0]!.event_id!);
    invoked = [];
    runner.listen(source.id, event!, 1);
    await waitFor(() => stores.invocations.list(source.id).find((r) => r.trigger === 'event'));
    assert.deepEqual(invoked, [{ kind: 'run', eventJson: '{"n":1}' }]);
    invoked = [];
    runner.listen(source.id, event!, MAX_LISTENER_HOPS + 1);
    assert.deepEqual(invoked, []);
    assert.match(stores.logs.list(source.id)[0]!.message, /not run: listeners passed events on 8 times in a row/);
  });
});
