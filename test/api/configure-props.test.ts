// Configuration forms through the API: async options (page and prevContext pagination, query,
// propDefinition with inputValues) and additionalProps/reloadProps, then deploying what was configured.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SpoutProcess, startSpout } from '../helpers/service';

/** A ticketing source written for this test: every way a prop gets its options, and props that depend on `mode`. */
const TICKETS = `
import { ConfigurationError } from "@pipedream/platform";

const tracker = {
  type: "app",
  app: "tracker",
  propDefinitions: {
    projectId: {
      type: "string",
      label: "Project",
      description: "The project to watch",
      async options({ prevContext }) {
        if (!this.$auth.api_key) throw new Error("connect a tracker account first");
        const start = Number(prevContext.nextPageToken ?? 1);
        const options = [start, start + 1].map((n) => ({ label: "Project " + n + " (" + this.owner() + ")", value: "p" + n }));
        return { options, context: { nextPageToken: start < 3 ? String(start + 2) : null } };
      },
    },
    ticketId: {
      type: "string",
      label: "Ticket",
      async options({ page, projectId }) {
        return [page * 2, page * 2 + 1].map((n) => projectId + "-t" + n);
      },
    },
  },
  methods: {
    owner() { return this.$auth.owner; },
  },
};

export default {
  key: "tracker-new-ticket-configurable",
  name: "New ticket (configurable)",
  version: "0.0.1",
  props: {
    tracker,
    project: { propDefinition: [tracker, "projectId"] },
    ticket: { propDefinition: [tracker, "ticketId", (c) => ({ projectId: c.project })], optional: true },
    pinned: { propDefinition: [tracker, "ticketId", { projectId: "fixed" }], label: "Pinned ticket", optional: true },
    color: { type: "string", options: ["red", { label: "Forest green", value: "green" }], optional: true },
    prefix: { type: "string", optional: true },
    region: {
      type: "string",
      useQuery: true,
      optional: true,
      async options({ query }) {
        return ["eu-west", "eu-north", "us-east"]
          .filter((r) => r.includes(query ?? ""))
          .map((r) => ({ label: r.toUpperCase(), value: (this.prefix ?? "") + r }));
      },
    },
    broken: { type: "string", optional: true, async options() { throw new Error("upstream said no"); } },
    mode: { type: "string", options: ["simple", "advanced", "forbidden", "bad"], reloadProps: true, optional: true, default: "simple" },
  },
  async additionalProps(previousPropDefs) {
    console.log("reloading for mode " + this.mode);
    if (this.mode === "forbidden") throw new ConfigurationError('mode "forbidden" needs an admin account');
    if (this.mode === "bad") return { store: { type: "number", label: "Store" } };
    if (this.mode !== "advanced") return {};
    previousPropDefs.color.disabled = true;
    return {
      threshold: { type: "integer", label: "Threshold", min: 1, max: 10 },
      seen: { type: "string", optional: true, default: Object.keys(previousPropDefs).filter((k) => k === "threshold").join(",") || "none" },
      size: { type: "string", optional: true, async options() { return ["s", "m", "l"].map((s) => this.mode + ":" + s); } },
    };
  },
  async run() {
    this.$emit({ mode: this.mode, threshold: this.threshold, seen: this.seen, project: this.project, owner: this.tracker.owner() });
  },
};
`;

describe('configuring props through the API', () => {
  let spout: SpoutProcess;
  let componentId: string;
  let account: string;
  const options = (body: Record<string, unknown>) => spout.api('POST', '/v1/components/configure', { id: componentId, ...body });
  const props = (configured: Record<string, unknown>) => spout.api('POST', '/v1/components/props', { id: componentId, configured_props: configured });
  const values = (res: { json: { options: Array<{ value: unknown }> } }) => res.json.options.map((o) => o.value);

  before(async () => {
    spout = await startSpout();
    const saved = await spout.api('POST', '/v1/components', { component_code: TICKETS });
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    componentId = saved.json.data.id;
    const created = await spout.api('POST', '/v1/accounts', { app: 'tracker', name: 'Work', credentials: { api_key: 'tk-123', owner: 'ana' } });
    account = created.json.data.id;
  });
  after(async () => void (await spout.stop()));

  it('lists static options in both forms', async () => {
    const res = await options({ prop_name: 'color' });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    assert.deepEqual(res.json.options, [
      { label: 'red', value: 'red' },
      { label: 'Forest green', value: 'green' },
    ]);
    assert.deepEqual(res.json.errors, []);
  });

  it('pages a propDefinition with prevContext, `this` being the app with the account as $auth', async () => {
    const configured = { tracker: { authProvisionId: account } };
    const first = await options({ prop_name: 'project', configured_props: configured });
    assert.equal(first.status, 200, JSON.stringify(first.json));
    assert.deepEqual(first.json.options, [
      { label: 'Project 1 (ana)', value: 'p1' },
      { label: 'Project 2 (ana)', value: 'p2' },
    ]);
    assert.deepEqual(first.json.context, { nextPageToken: '3' });
    const second = await options({ prop_name: 'project', configured_props: configured, prev_context: first.json.context });
    assert.deepEqual(values(second), ['p3', 'p4']);
    assert.deepEqual(second.json.context, { nextPageToken: null });

    const anonymous = await options({ prop_name: 'project' });
    assert.equal(anonymous.status, 200);
    assert.deepEqual(anonymous.json.options, []);
    assert.deepEqual(anonymous.json.errors, ['connect a tracker account first']);
  });

  it('passes inputValues (a function of configured props, or an object) and pages by number', async () => {
    assert.deepEqual(values(await options({ prop_name: 'ticket', configured_props: { project: 'p3' } })), ['p3-t0', 'p3-t1']);
    assert.deepEqual(values(await options({ prop_name: 'ticket', configured_props: { project: 'p3' }, page: 1 })), ['p3-t2', 'p3-t3']);
    assert.deepEqual(values(await options({ prop_name: 'pinned' })), ['fixed-t0', 'fixed-t1']);
  });

  it("gives a prop's own options method the query and `this` with configured values", async () => {
    const res = await options({ prop_name: 'region', query: 'eu', configured_props: { prefix: 'x-' } });
    assert.deepEqual(res.json.options, [
      { label: 'EU-WEST', value: 'x-eu-west' },
      { label: 'EU-NORTH', value: 'x-eu-north' },
    ]);
    assert.deepEqual(values(await options({ prop_name: 'region' })), ['eu-west', 'eu-north', 'us-east']);
  });

  it('reports a throwing options method in errors, and bad requests with 4xx', async () => {
    const broken = await options({ prop_name: 'broken' });
    assert.equal(broken.status, 200);
    assert.deepEqual(broken.json.errors, ['upstream said no']);

    const unknown = await options({ prop_name: 'nope' });
    assert.equal(unknown.status, 400);
    assert.match(unknown.json.error, /no prop `nope`/);
    const plain = await options({ prop_name: 'prefix' });
    assert.equal(plain.status, 400);
    assert.match(plain.json.error, /prop `prefix` has no options/);
    assert.equal((await spout.api('POST', '/v1/components/configure', { id: 'sc_missing', prop_name: 'color' })).status, 404);
    const badPage = await options({ prop_name: 'color', page: -1 });
    assert.equal(badPage.status, 400);
    assert.equal(badPage.json.errors[0].path, 'page');
  });

  it('runs additionalProps with `this` holding the values, and merges what it returns', async () => {
    const simple = await props({ mode: 'simple' });
    assert.equal(simple.status, 200, JSON.stringify(simple.json));
    const names = (res: typeof simple) => res.json.data.configurable_props.map((p: { name: string }) => p.name);
    assert.deepEqual(names(simple), ['tracker', 'project', 'ticket', 'pinned', 'color', 'prefix', 'region', 'broken', 'mode']);
    assert.equal(simple.json.data.configurable_props.find((p: { name: string }) => p.name === 'mode').reloadProps, true);
    assert.ok(simple.json.logs.some((l: { message: string }) => l.message === 'reloading for mode simple'));

    const advanced = await props({ mode: 'advanced' });
    assert.deepEqual(names(advanced).slice(-3), ['threshold', 'seen', 'size']);
    const byName = (res: typeof simple, name: string) => res.json.data.configurable_props.find((p: { name: string }) => p.name === name);
    assert.deepEqual({ type: byName(advanced, 'threshold').type, min: byName(advanced, 'threshold').min, max: byName(advanced, 'threshold').max }, { type: 'integer', min: 1, max: 10 });
    assert.equal(byName(advanced, 'color').disabled, true, 'a prop edited in previousPropDefs is reported changed');
    assert.equal(byName(advanced, 'seen').default, 'none');
    // The next reload sees the previous result among previousPropDefs.
    assert.equal(byName(await props({ mode: 'advanced' }), 'seen').default, 'threshold');
    // A dynamic prop's async options run too.
    assert.deepEqual(values(await options({ prop_name: 'size', configured_props: { mode: 'advanced' } })), ['advanced:s', 'advanced:m', 'advanced:l']);
  });

  it('answers a ConfigurationError with 400 and its message, and names an invalid dynamic prop', async () => {
    const forbidden = await props({ mode: 'forbidden' });
    assert.equal(forbidden.status, 400);
    assert.equal(forbidden.json.error, 'mode "forbidden" needs an admin account');
    const bad = await props({ mode: 'bad' });
    assert.equal(bad.status, 400);
    assert.match(bad.json.errors[0].path, /^additionalProps\.props\.store/);
    assert.equal((await spout.api('POST', '/v1/components/props', { id: 'nope' })).status, 404);
  });

  it('deploys with dynamic props checked, keeps them across update and restart, and configures from a dc_ id', async () => {
    const base = { tracker: { authProvisionId: account }, project: 'p2', mode: 'advanced' };
    const tooBig = await spout.api('POST', '/v1/sources', { component_id: componentId, configured_props: { ...base, threshold: 20 } });
    assert.equal(tooBig.status, 400);
    assert.equal(tooBig.json.errors[0].path, 'configured_props.threshold');
    const forbidden = await spout.api('POST', '/v1/sources', { component_id: componentId, configured_props: { ...base, mode: 'forbidden' } });
    assert.equal(forbidden.status, 400);
    assert.equal(forbidden.json.error, 'mode "forbidden" needs an admin account');

    const deployed = await spout.api('POST', '/v1/sources', { component_id: componentId, configured_props: { ...base, threshold: 5 } });
    assert.equal(deployed.status, 200, JSON.stringify(deployed.json));
    const id = deployed.json.data.id as string;
    assert.deepEqual(
      deployed.json.data.dynamic_props.map((p: { name: string }) => p.name),
      ['color', 'threshold', 'seen', 'size'],
    );
    const lastEvent = async () => {
      const run = await spout.api('POST', `/v1/sources/${id}/run`);
      assert.equal(run.json.data.error, null, JSON.stringify(run.json));
      return (await spout.api('GET', `/v1/sources/${id}/event_summaries?limit=1`)).json.data[0].event;
    };
    assert.deepEqual(await lastEvent(), { mode: 'advanced', threshold: 5, seen: 'none', project: 'p2', owner: 'ana' });

    const updated = await spout.api('PUT', `/v1/sources/${id}`, { configured_props: { ...base, threshold: 7 } });
    assert.equal(updated.status, 200, JSON.stringify(updated.json));
    assert.equal((await lastEvent()).threshold, 7);
    const rejected = await spout.api('PUT', `/v1/sources/${id}`, { configured_props: { ...base, threshold: 0 } });
    assert.equal(rejected.status, 400);
    assert.equal((await lastEvent()).threshold, 7, 'a rejected update leaves the source as it was');

    // Options for an existing source start from its values.
    assert.deepEqual(values(await spout.api('POST', '/v1/components/configure', { id, prop_name: 'ticket' })), ['p2-t0', 'p2-t1']);

    await spout.stop();
    spout = await startSpout({ dataDir: spout.dataDir, apiKey: spout.apiKey });
    assert.deepEqual(await lastEvent(), { mode: 'advanced', threshold: 7, seen: 'none', project: 'p2', owner: 'ana' });
  });
});
