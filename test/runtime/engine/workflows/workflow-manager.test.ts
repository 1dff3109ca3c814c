import assert from 'node:assert/strict';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ComponentLibrary, type SandboxFactory } from '../../../../runtime/components/library';
import type { ActionRunView } from '../../../../runtime/contract/action-api';
import type { HttpResponsePayload } from '../../../../runtime/contract/host-protocol';
import { MAX_LISTENER_HOPS } from '../../../../runtime/engine/events/emission';
import type { ComponentSessions } from '../../../../runtime/engine/sessions/component-sessions';
import { WorkflowManager } from '../../../../runtime/engine/workflows/workflow-manager';
import { ComponentError } from '../../../../runtime/lib/error-kinds';
import type { ComponentRecord } from '../../../../runtime/store/metadata';
import { RunLog } from '../../../../runtime/store/workflow-run-log';
import { type EngineStores, openEngineStores } from '../../../helpers/engine';
import { waitFor } from '../../../helpers/service';

const action = (id: string): ComponentRecord => ({
  id,
  key: null,
  name: id,
  version: '0.0.1',
  type: 'action',
  description: null,
  code: '',
  filename: `${id}.mjs`,
  bundle: '',
  code_hash: id,
  configurable_props: [{ name: 'text', type: 'string', optional: true }],
  created_at: 0,
});

/** What a fake step does with its configured props and the steps before it. */
type StepScript = (configured: Record<string, unknown>, steps: Record<string, unknown>, respond?: (r: HttpResponsePayload) => void) => Partial<ActionRunView>;

let stores: EngineStores;
let runs: RunLog;
let workflows: WorkflowManager;
/** The fake action of each component id, and the calls made, in order. */
let scripts: Record<string, StepScript>;
let called: Array<{ component: string; configured: Record<string, unknown> }>;

beforeEach(async () => {
  stores = await openEngineStores();
  runs = new RunLog(path.join(stores.dataDir, 'workflow-runs'));
  called = [];
  scripts = {};
  for (const id of ['sc_fetch', 'sc_store', 'sc_never']) stores.metadata.data.components.push(action(id));
  stores.metadata.data.components.push({ ...action('sc_source'), type: 'source' });
  stores.metadata.data.sources.push({ id: 'dc_src', component_id: 'sc_source', name: 'Src', name_slug: 'src', configured_props: {}, endpoints: {}, active: true, created_at: 0, updated_at: 0 });
  const sessions = {
    runAction: async (component: ComponentRecord, configured: Record<string, unknown>, steps: Record<string, unknown>, options: { onRespond?: (r: HttpResponsePayload) => void }): Promise<ActionRunView> => {
      called.push({ component: component.id, configured });
      const answer = scripts[component.id]?.(configured, steps, options.onRespond) ?? {};
      return { id: 'run', invocation_id: `inv_${called.length}`, exports: {}, os: [], ret: null, error: null, exit: null, response: null, emitted: [], sends: [], ...answer };
    },
  } as unknown as ComponentSessions;
  const describeSandbox: SandboxFactory = () => Promise.reject(new Error('no code is loaded in these tests'));
  workflows = new WorkflowManager({ metadata: stores.metadata, library: new ComponentLibrary(stores.metadata), sessions, emission: stores.emission, events: stores.events, runs, secrets: stores.secrets, describeSandbox });
  stores.onListen = (listenerId, event, depth) => workflows.listen(listenerId, event, depth);
});

afterEach(async () => {
  await workflows.stop();
  await runs.close();
  await stores.close();
});

describe('WorkflowManager', () => {
  it('runs the steps in order, each seeing the trigger event and what earlier steps returned and exported', async () => {
    scripts.sc_fetch = () => ({ ret: { items: [{ id: 7 }] }, exports: { $summary: 'fetched' } });
    scripts.sc_store = (configured) => ({ ret: `stored ${configured.text}` });
    const wf = await workflows.create({
      name: 'Fetch and store',
      steps: [
        { name: 'fetch', component_id: 'sc_fetch', configured_props: { text: '{{steps.trigger.event.body.name}}' } },
        { name: 'store', component_id: 'sc_store', configured_props: { text: 'item {{steps.fetch.$return_value.items[0].id}} ({{steps.fetch.$summary}})' } },
      ],
    });
    const run = await workflows.run(wf, { body: { name: 'Ada' } });
    assert.deepEqual(called, [
      { component: 'sc_fetch', configured: { text: 'Ada' } },
      { component: 'sc_store', configured: { text: 'item 7 (fetched)' } },
    ]);
    assert.equal(run.status, 'success');
    assert.deepEqual(
      run.steps.map((s) => [s.name, s.ret, s.invocation_id]),
      [
        ['fetch', { items: [{ id: 7 }] }, 'inv_1'],
        ['store', 'stored item 7 (fetched)', 'inv_2'],
      ],
    );
    assert.deepEqual(
      workflows.runs(wf).map((r) => r.id),
      [run.id],
      'the run is recorded',
    );
  });

  it('ends a run at a failing step, at $.flow.exit, and at a reference that cannot be read', async () => {
    scripts.sc_fetch = () => ({ error: { name: 'Error', message: 'upstream down', stack: null } });
    const failing = await workflows.create({
      steps: [
        { name: 'fetch', component_id: 'sc_fetch' },
        { name: 'never', component_id: 'sc_never' },
      ],
    });
    const failed = await workflows.run(failing, {});
    assert.equal(failed.status, 'error');
    assert.deepEqual(
      failed.steps.map((s) => s.name),
      ['fetch'],
    );

    scripts.sc_fetch = () => ({ exit: { reason: 'nothing new' } });
    assert.equal((await workflows.run(failing, {})).status, 'exited');

    const badRef = await workflows.create({ steps: [{ name: 'store', component_id: 'sc_store', configured_props: { text: '{{process.env.HOME}}' } }] });
    const refused = await workflows.run(badRef, {});
    assert.equal(refused.status, 'error');
    assert.match(refused.steps[0]!.error!.message, /steps\.store\.configured_props\.text: \{\{process\.env\.HOME\}\} is not a reference/);
    assert.deepEqual(
      called.map((c) => c.component),
      ['sc_fetch', 'sc_fetch'],
      'neither sc_never nor the bad step ran',
    );
  });

  it('emits what steps send with $.send.emit as the workflow’s events, routed to its subscribers', async () => {
    scripts.sc_fetch = () => ({ emitted: [{ n: 1 }, { n: 2 }] });
    const wf = await workflows.create({ steps: [{ name: 'fetch', component_id: 'sc_fetch' }] });
    stores.metadata.data.subscriptions.push({ id: 'sub_1', emitter_id: wf.id, listener_id: 'wh_1', event_name: null, created_at: 0 });
    await workflows.run(wf, {});
    assert.deepEqual(
      stores.events
        .list(wf.id)
        .map((e) => JSON.parse(e.json))
        .reverse(),
      [{ n: 1 }, { n: 2 }],
    );
    assert.deepEqual(
      stores.deliveries.map((d) => d.webhooks),
      [['wh_1'], ['wh_1']],
    );
  });

  it('hands on the webhook deliveries that led to a run, from its trigger or the event it listened to, to what it emits', async () => {
    scripts.sc_fetch = () => ({ emitted: [{ n: 1 }] });
    const wf = await workflows.create({ trigger: { type: 'source', source_id: 'dc_src' }, steps: [{ name: 'fetch', component_id: 'sc_fetch' }] });
    stores.metadata.data.subscriptions.push({ id: 'sub_1', emitter_id: wf.id, listener_id: 'wh_1', event_name: null, created_at: 0 });
    await workflows.run(wf, {}, { hops: 2 });
    await stores.events.openSource('dc_src');
    await stores.emission.accept('dc_src', [{ json: '{"n":0}', meta: {} }], 0, null, 4);
    await waitFor(() => workflows.runs(wf).length === 2, 2000, 'the listening run');
    assert.deepEqual(
      stores.deliveries.filter((d) => d.event.emitter_id === wf.id).map((d) => d.event.hops),
      [2, 4],
    );
  });

  it('replays a run with its trigger event', async () => {
    const wf = await workflows.create({ steps: [{ name: 'fetch', component_id: 'sc_fetch', configured_props: { text: '{{steps.trigger.event.n}}' } }] });
    const first = await workflows.run(wf, { n: 41 });
    const again = await workflows.replay(wf, first.id);
    assert.equal(again?.replay_of, first.id);
    assert.deepEqual(
      called.map((c) => c.configured.text),
      [41, 41],
    );
    assert.equal(workflows.replay(wf, 'wfr_missing'), null);
  });

  it('listens to its source trigger: runs with each event, not past the hop limit nor while inactive', async () => {
    const wf = await workflows.create({ trigger: { type: 'source', source_id: 'dc_src' }, steps: [{ name: 'fetch', component_id: 'sc_fetch', configured_props: { text: '{{steps.trigger.event.n}}' } }] });
    assert.deepEqual(
      stores.metadata.data.subscriptions.map((s) => [s.emitter_id, s.listener_id, s.event_name]),
      [['dc_src', wf.id, null]],
    );
    await stores.events.openSource('dc_src');
    await stores.emission.accept('dc_src', [{ json: '{"n":1}', meta: {} }]);
    await waitFor(() => workflows.runs(wf).length === 1, 2000, 'the listening run');
    assert.deepEqual(
      called.map((c) => c.configured.text),
      [1],
    );

    const [event] = stores.events.list('dc_src');
    workflows.listen(wf.id, event!, MAX_LISTENER_HOPS + 1);
    await workflows.update(wf, { active: false });
    workflows.listen(wf.id, event!, 1);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(called.length, 1);
  });

  it('moves its trigger subscription on update, and removes runs, events and subscriptions with the workflow', async () => {
    const wf = await workflows.create({ trigger: { type: 'source', source_id: 'dc_src', event_name: 'a' }, steps: [] });
    await workflows.update(wf, { trigger: { type: 'source', source_id: 'dc_src', event_name: 'b' } });
    assert.deepEqual(
      stores.metadata.data.subscriptions.map((s) => s.event_name),
      ['b'],
    );
    await workflows.run(wf, {});
    await workflows.remove(wf);
    assert.equal(workflows.find(wf.id), undefined);
    assert.deepEqual(stores.metadata.data.subscriptions, []);
    assert.deepEqual(runs.list(wf.id), []);
  });

  it('keeps an HTTP trigger’s endpoint across updates, and finds only active workflows by it', async () => {
    const wf = await workflows.create({ trigger: { type: 'http', custom_response: true }, steps: [] });
    const endpoint = wf.trigger.type === 'http' ? wf.trigger.endpoint_id : '';
    await workflows.update(wf, { trigger: { type: 'http' }, name: 'Renamed' });
    assert.deepEqual(wf.trigger, { type: 'http', endpoint_id: endpoint, custom_response: false });
    assert.equal(workflows.byEndpoint(endpoint), wf);
    await workflows.update(wf, { active: false });
    assert.equal(workflows.byEndpoint(endpoint), undefined);
  });

  it('refuses a definition with bad step names, a missing component, a source as a step, or an unknown source trigger', async () => {
    await assert.rejects(
      workflows.create({
        steps: [
          { name: 'trigger', component_id: 'sc_fetch' },
          { name: 'a', component_id: 'sc_nope' },
          { name: 'b', component_id: 'sc_source' },
          { name: 'b', component_id: 'sc_fetch' },
        ],
      }),
      (err: unknown) => {
        assert.ok(err instanceof ComponentError);
        assert.deepEqual(
          err.problems.map((p) => p.path),
          ['steps[0].name', 'steps[1].component_id', 'steps[2].component_id', 'steps[3].name'],
        );
        return true;
      },
    );
    await assert.rejects(workflows.create({ trigger: { type: 'source', source_id: 'dc_missing' } }), (err: unknown) => err instanceof ComponentError && err.problems[0]!.path === 'trigger.source_id');
    assert.deepEqual(workflows.list(), []);
  });
});
