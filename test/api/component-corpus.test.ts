// The component corpus (test/fixtures/components): valid components written in the shapes of
// Pipedream's public registry load through POST /v1/components and describe their props as
// expected; each invalid one is rejected naming the offending field; a handful of the valid
// sources are deployed and run.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bundleFile } from '../../runtime/components/bundle-file';
import { type SpoutProcess, startSpout, waitFor } from '../helpers/service';

const FIXTURES = path.resolve('test', 'fixtures', 'components');
const VALID_DIR = path.join(FIXTURES, 'valid');
const INVALID_DIR = path.join(FIXTURES, 'invalid');
/** Components breaking a rule Pipedream tolerates: they load, with a warning (docs/runtime.md). */
const WARNED_DIR = path.join(FIXTURES, 'warned');

/** Component files, as paths relative to `dir` with `/` separators. */
function componentFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (sub: string) => {
    for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(rel);
      else if (/\.(mjs|js|ts)$/.test(entry.name)) out.push(rel);
    }
  };
  walk('');
  return out.sort();
}

/**
 * Entry files by the registry's layout: app files (`*.app.mjs`, `app/*.app.ts`) and anything
 * under a `common/` folder are imported by components, not components themselves.
 */
const isEntry = (rel: string) => !/\.app\.(mjs|js|ts)$/.test(rel) && !rel.split('/').includes('common');

/** A relative import or require: such files are bundled first, as the CLI does. */
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)["']\.\.?\//;

/** The body of POST /v1/components for a fixture: bundled with `bundleFile` when it imports local files, else its text. */
async function saveBody(file: string): Promise<{ component_code: string; component_filename: string }> {
  const text = fs.readFileSync(file, 'utf8');
  if (!RELATIVE_IMPORT.test(text)) return { component_code: text, component_filename: path.basename(file) };
  const bundled = await bundleFile(file);
  return { component_code: bundled.code, component_filename: bundled.filename };
}

/** Runs `fn` over `items`, at most `limit` at a time, keeping the order of results. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await fn(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

interface Described {
  name: string;
  type: string;
  [field: string]: unknown;
}

interface Expected {
  type: 'source' | 'action';
  key: string | null;
  /** Every prop as `name:type`, in declaration order. */
  props: string[];
  /** Fields some props must have, compared deeply; `undefined` means the field is absent. */
  fields?: Record<string, Record<string, unknown>>;
}

const ACME_DEFINITIONS = ['queueId', 'ticketId', 'priority', 'tags', 'maxResults'];
const ACME_METHODS = ['_baseUrl', '_headers', '_makeRequest', 'listQueues', 'listTickets', 'getTicket', 'createTicket', 'updateTicket', 'createHook', 'deleteHook'];
const ACME_QUEUE = {
  type: 'string',
  label: 'Queue',
  description: 'The helpdesk queue the tickets belong to.',
  hasOptionsMethod: true,
  propDefinition: { app: 'acme', name: 'queueId', resolved: true, hasInputValues: false },
};
const PRIORITIES = ['low', 'normal', 'high', 'urgent'];

/** What each valid entry file describes (path relative to valid/). */
const VALID: Record<string, Expected> = {
  // --- acme: app file, two-level common/ spreads, polling and webhook sources, actions ---
  'acme/sources/new-ticket/new-ticket.mjs': {
    type: 'source',
    key: 'acme-new-ticket',
    props: ['acme:app', 'db:$.service.db', 'queueId:string', 'timer:$.interface.timer', 'priority:string'],
    fields: {
      acme: { app: 'acme', propDefinitions: ACME_DEFINITIONS, methods: ACME_METHODS },
      queueId: ACME_QUEUE,
      timer: { default: { intervalSeconds: 900 } },
      // The app's label and options are inherited; the prop's own description wins.
      priority: { label: 'Priority', description: 'Only emit tickets with this priority.', options: PRIORITIES, optional: true, default: undefined },
    },
  },
  'acme/sources/ticket-updated/ticket-updated.mjs': {
    type: 'source',
    key: 'acme-ticket-updated',
    props: ['acme:app', 'db:$.service.db', 'queueId:string', 'http:$.interface.http'],
    fields: { http: { customResponse: true }, queueId: ACME_QUEUE },
  },
  'acme/sources/new-comment/new-comment.mjs': {
    type: 'source',
    key: 'acme-new-comment',
    props: ['acme:app', 'db:$.service.db', 'queueId:string', 'http:$.interface.http', 'includeInternal:boolean'],
    fields: { includeInternal: { label: 'Include Internal Notes', optional: true, default: false } },
  },
  'acme/actions/create-ticket/create-ticket.mjs': {
    type: 'action',
    key: 'acme-create-ticket',
    props: ['acme:app', 'queueId:string', 'subject:string', 'body:string', 'priority:string', 'tags:string[]'],
    fields: {
      body: { label: 'Body', description: "The ticket's text. **Markdown** is supported.", optional: undefined },
      priority: { label: 'Priority', description: 'How urgent the ticket is.', options: PRIORITIES, optional: true },
      tags: { label: 'Tags', optional: true, propDefinition: { app: 'acme', name: 'tags', resolved: true, hasInputValues: false } },
    },
  },
  'acme/actions/update-ticket/update-ticket.mjs': {
    type: 'action',
    key: 'acme-update-ticket',
    props: ['acme:app', 'queueId:string', 'ticketId:string', 'status:string', 'priority:string'],
    fields: {
      ticketId: {
        label: 'Ticket',
        hasOptionsMethod: true,
        propDefinition: { app: 'acme', name: 'ticketId', resolved: true, hasInputValues: true },
      },
      status: {
        options: [
          { label: 'Open', value: 'open' },
          { label: 'Waiting on customer', value: 'pending' },
          { label: 'Solved', value: 'solved' },
        ],
        optional: true,
      },
      // Own label wins, the app's description is inherited.
      priority: { label: 'New Priority', description: 'How urgent the ticket is.' },
    },
  },
  'acme/actions/close-ticket/close-ticket.mjs': {
    type: 'action',
    key: 'acme-close-ticket',
    props: ['acme:app', 'queueId:string', 'ticketId:string', 'note:string'],
    fields: { ticketId: { propDefinition: { app: 'acme', name: 'ticketId', resolved: true, hasInputValues: true } }, note: { optional: true } },
  },
  'acme/actions/list-tickets/list-tickets.mjs': {
    type: 'action',
    key: 'acme-list-tickets',
    props: ['acme:app', 'queueId:string', 'maxResults:integer'],
    // min and default come from the app; the prop's own max (50) overrides the app's 100.
    fields: { maxResults: { label: 'Max Results', min: 1, max: 50, default: 20, optional: true } },
  },
  // --- widget_co: an app slug with an underscore, cron timer, useQuery options ---
  'widget_co/sources/low-stock/low-stock.mjs': {
    type: 'source',
    key: 'widget_co-low-stock',
    props: ['widgetCo:app', 'db:$.service.db', 'timer:$.interface.timer', 'warehouseId:string', 'threshold:integer'],
    fields: {
      widgetCo: { app: 'widget_co', propDefinitions: ['warehouseId', 'sku'], methods: ['_request', 'searchWarehouses', 'getStockLevels', 'adjustStock'] },
      timer: { label: 'Schedule', default: { cron: '0 7 * * 1-5' } },
      warehouseId: { label: 'Warehouse', useQuery: true, hasOptionsMethod: true },
      threshold: { min: 0, max: 100000, optional: true, default: 10 },
    },
  },
  'widget_co/actions/adjust-stock/adjust-stock.mjs': {
    type: 'action',
    key: 'widget_co-adjust-stock',
    props: ['widgetCo:app', 'warehouseId:string', 'sku:string', 'quantity:integer', 'reason:string'],
    fields: {
      sku: { label: 'SKU', description: 'The SKU to adjust, e.g. `WDG-0042`.' },
      quantity: { min: -1000, max: 1000, optional: undefined },
      reason: { optional: true, default: 'recount' },
    },
  },
  // --- trackly: TypeScript with @pipedream/types, app in app/, constants in common/ ---
  'trackly/sources/new-issue/new-issue.ts': {
    type: 'source',
    key: 'trackly-new-issue',
    props: ['trackly:app', 'http:$.interface.http', 'db:$.service.db', 'projectId:string'],
    fields: {
      trackly: { app: 'trackly', propDefinitions: ['projectId', 'labels'], methods: ['_apiUrl', 'listProjects', 'createIssue'] },
      http: { customResponse: undefined },
      projectId: { label: 'Project', hasOptionsMethod: true },
    },
  },
  'trackly/actions/create-issue/create-issue.ts': {
    type: 'action',
    key: 'trackly-create-issue',
    props: ['trackly:app', 'projectId:string', 'title:string', 'state:string', 'labels:string[]', 'estimate:integer'],
    fields: {
      state: {
        options: [
          { label: 'Backlog', value: 'backlog' },
          { label: 'In progress', value: 'in_progress' },
          { label: 'Done', value: 'done' },
        ],
        default: 'backlog',
      },
      labels: { label: 'Labels', optional: true },
      estimate: { min: 0, max: 21 },
    },
  },
  // --- notely: CommonJS app and components ---
  'notely/sources/new-note/new-note.js': {
    type: 'source',
    key: 'notely-new-note',
    props: ['notely:app', 'db:$.service.db', 'timer:$.interface.timer', 'notebook:string'],
    fields: { timer: { default: { intervalSeconds: 900 } }, notebook: { label: 'Notebook', hasOptionsMethod: true } },
  },
  'notely/actions/append-note/append-note.js': {
    type: 'action',
    key: 'notely-append-note',
    props: ['notely:app', 'notebook:string', 'noteId:string', 'text:string'],
  },
  // --- single-file components ---
  'standalone/http-echo.mjs': { type: 'source', key: null, props: ['http:$.interface.http'] },
  'standalone/http-custom-response.mjs': {
    type: 'source',
    key: 'inbox-webhook',
    props: ['http:$.interface.http', 'sharedSecret:string', 'label:string'],
    fields: {
      http: { customResponse: true },
      sharedSecret: { label: 'Shared Secret', secret: true, optional: undefined },
      label: { secret: undefined, optional: true, default: 'inbox' },
    },
  },
  'standalone/timer-interval.mjs': {
    type: 'source',
    key: 'heartbeat-counter',
    props: ['db:$.service.db', 'timer:$.interface.timer'],
    fields: { timer: { default: { intervalSeconds: 900 } } },
  },
  'standalone/timer-cron.mjs': {
    type: 'source',
    key: 'weekday-digest',
    props: ['timer:$.interface.timer', 'timezone:string'],
    fields: { timer: { default: { cron: '30 9 * * 1-5' } }, timezone: { optional: true, default: 'UTC' } },
  },
  'standalone/dedupe-greatest.mjs': { type: 'source', key: 'order-feed', props: ['http:$.interface.http'] },
  'standalone/dedupe-last.mjs': {
    type: 'source',
    key: 'status-change',
    props: ['db:$.service.db', 'timer:$.interface.timer', 'statuses:string[]'],
    fields: { timer: { default: { intervalSeconds: 300 } }, statuses: { optional: true, default: ['operational', 'degraded'] } },
  },
  'standalone/lifecycle-hooks.mjs': { type: 'source', key: 'lifecycle-recorder', props: ['db:$.service.db', 'http:$.interface.http'] },
  'standalone/all-input-types.mjs': {
    type: 'action',
    key: 'form-sampler',
    props: ['title:string', 'recipients:string[]', 'count:integer', 'scores:integer[]', 'urgent:boolean', 'flags:boolean[]', 'metadata:object', 'payload:any'],
    fields: { count: { min: 1, max: 10 }, recipients: { description: 'Email addresses.' }, payload: { optional: true } },
  },
  'standalone/integer-array-bounds.mjs': {
    type: 'action',
    key: 'dice-roller',
    props: ['faces:integer[]'],
    fields: { faces: { min: 1, max: 6 } },
  },
  'standalone/optional-defaults.mjs': {
    type: 'action',
    key: 'export-settings',
    props: ['format:string', 'columns:string[]', 'pageSize:integer', 'retries:integer[]', 'includeHeader:boolean', 'dialect:object', 'extra:any'],
    fields: {
      format: { optional: true, default: 'csv', options: ['csv', 'json', 'xlsx'] },
      columns: { default: ['id', 'name'] },
      pageSize: { min: 10, max: 500, default: 100 },
      retries: { default: [1, 5, 30] },
      includeHeader: { default: true },
      dialect: { default: { delimiter: ',', quote: '"' } },
      extra: { optional: true, default: null },
    },
  },
  'standalone/options-forms.mjs': {
    type: 'action',
    key: 'options-gallery',
    props: ['size:string', 'level:integer', 'weekdays:string[]', 'page:string', 'cursor:string', 'country:string'],
    fields: {
      size: { options: ['small', 'medium', 'large'], hasOptionsMethod: undefined },
      level: {
        options: [
          { label: 'Beginner', value: 1 },
          { label: 'Expert', value: 3 },
        ],
      },
      weekdays: {
        options: [
          { label: 'Monday', value: 'mon' },
          { label: 'Friday', value: 'fri' },
        ],
        optional: true,
      },
      page: { hasOptionsMethod: true, options: undefined, useQuery: undefined },
      cursor: { hasOptionsMethod: true },
      country: { hasOptionsMethod: true, useQuery: true },
    },
  },
  'standalone/data-store-action.mjs': {
    type: 'action',
    key: 'kv-upsert',
    props: ['dataStore:data_store', 'recordKey:string', 'value:any', 'ttl:integer'],
    fields: { dataStore: { label: 'Data Store' }, ttl: { min: 60, max: undefined, optional: true } },
  },
  'standalone/data-store-source.mjs': { type: 'source', key: 'visitor-log', props: ['http:$.interface.http', 'visitors:data_store'] },
  'standalone/http-request-action.mjs': {
    type: 'action',
    key: 'fetch-json',
    props: ['request:http_request'],
    fields: { request: { label: 'API Request', default: { method: 'GET', url: 'https://status.example.com/api/v1/summary.json' } } },
  },
  'standalone/alerts.mjs': {
    type: 'action',
    key: 'alert-panel',
    props: ['intro:alert', 'note:alert', 'caution:alert', 'danger:alert', 'range:string'],
    fields: {
      intro: { alertType: 'info', content: 'This action only **reads** data.' },
      note: { alertType: 'neutral' },
      caution: { alertType: 'warning' },
      danger: { alertType: 'error', content: 'Do not use with production credentials.' },
    },
  },
  'standalone/reload-props.mjs': {
    type: 'action',
    key: 'send-notice',
    // Only the static props: additionalProps runs through POST /v1/components/props.
    props: ['channel:string', 'message:string'],
    fields: { channel: { reloadProps: true, options: ['email', 'sms'] }, message: { reloadProps: undefined } },
  },
  'standalone/disabled-hidden.mjs': {
    type: 'action',
    key: 'report-builder',
    props: ['advanced:boolean', 'groupBy:string', 'legacyFormat:boolean'],
    fields: {
      advanced: { reloadProps: true, default: false },
      groupBy: { hidden: true, disabled: undefined },
      legacyFormat: { disabled: true, hidden: undefined },
    },
  },
  'standalone/axios-summary-action.mjs': {
    type: 'action',
    key: 'post-to-chat',
    props: ['webhookUrl:string', 'token:string', 'text:string'],
    fields: { token: { secret: true, optional: true }, webhookUrl: { secret: undefined } },
  },
  'standalone/flow-exit-action.mjs': {
    type: 'action',
    key: 'stop-if-empty',
    props: ['value:any', 'reason:string'],
    fields: { reason: { optional: true, default: 'Nothing to do' } },
  },
  'standalone/cjs-http.js': {
    type: 'source',
    key: 'form-submissions',
    props: ['http:$.interface.http', 'requiredField:string'],
    fields: { requiredField: { optional: true } },
  },
  'standalone/ts-timer.ts': {
    type: 'source',
    key: 'sensor-sampler',
    props: ['timer:$.interface.timer', 'sensors:string[]', 'offset:integer'],
    fields: { timer: { default: { intervalSeconds: 900 } }, offset: { min: -10, max: 10, default: 0 } },
  },
  'standalone/ts-action.ts': {
    type: 'action',
    key: 'convert-temperature',
    props: ['value:integer', 'to:string'],
    fields: {
      to: {
        options: [
          { label: 'Celsius', value: 'c' },
          { label: 'Fahrenheit', value: 'f' },
        ],
      },
    },
  },
};

/** The field an invalid fixture's leading `// expect: <path>` comment (a warned one's `// warn: <path>`) names. */
function expectedPath(file: string, marker = 'expect'): string {
  const match = new RegExp(`^// ${marker}: (\\S+)`, 'm').exec(fs.readFileSync(file, 'utf8'));
  assert.ok(match, `${file} has no "// ${marker}: <path>" comment`);
  return match[1] as string;
}

interface Saved {
  status: number;
  json: any;
}

/** The acme, trackly… API the deployed sources call: a local server standing in for the real one. */
interface FakeApi {
  url: string;
  tickets: Array<{ id: number; number: number; subject: string; created_at: string }>;
  requests: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: any }>;
  close: () => Promise<void>;
}

async function startFakeApi(): Promise<FakeApi> {
  const api: FakeApi = { url: '', tickets: [], requests: [], close: async () => undefined };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : null;
      api.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const url = new URL(req.url ?? '/', 'http://localhost');
      const send = (status: number, data?: unknown) => {
        res.writeHead(status, data === undefined ? {} : { 'content-type': 'application/json' });
        res.end(data === undefined ? undefined : JSON.stringify(data));
      };
      if (req.headers['x-acme-key'] !== 'acme-test-key') return send(401, { error: 'bad key' });
      if (req.method === 'GET' && url.pathname === '/api/v2/tickets') {
        const since = Number(url.searchParams.get('since_id') ?? 0);
        return send(200, { tickets: api.tickets.filter((t) => t.id > since) });
      }
      if (req.method === 'POST' && url.pathname === '/api/v2/hooks') return send(201, { id: 'hk_1' });
      if (req.method === 'DELETE' && url.pathname.startsWith('/api/v2/hooks/')) return send(204);
      send(404, { error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  api.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return api;
}

const ticket = (id: number) => ({ id, number: 1000 + id, subject: `Printer ${id} is on fire`, created_at: new Date(Date.UTC(2024, 0, id)).toISOString() });

describe('component corpus', () => {
  const validFiles = componentFiles(VALID_DIR).filter(isEntry);
  const invalidFiles = componentFiles(INVALID_DIR);
  const warnedFiles = componentFiles(WARNED_DIR);
  let spout: SpoutProcess;
  let fake: FakeApi;
  const saved = new Map<string, Saved>();
  const rejected = new Map<string, Saved>();
  const warned = new Map<string, Saved>();

  before(async () => {
    [spout, fake] = await Promise.all([startSpout(), startFakeApi()]);
    const save = async (file: string): Promise<Saved> => {
      const res = await spout.api('POST', '/v1/components', await saveBody(file));
      return { status: res.status, json: res.json };
    };
    const [valid, invalid, tolerated] = await Promise.all([mapLimit(validFiles, 4, (f) => save(path.join(VALID_DIR, f))), mapLimit(invalidFiles, 4, (f) => save(path.join(INVALID_DIR, f))), mapLimit(warnedFiles, 4, (f) => save(path.join(WARNED_DIR, f)))]);
    validFiles.forEach((f, i) => saved.set(f, valid[i] as Saved));
    invalidFiles.forEach((f, i) => rejected.set(f, invalid[i] as Saved));
    warnedFiles.forEach((f, i) => warned.set(f, tolerated[i] as Saved));
  });

  after(async () => {
    await spout?.stop();
    await fake?.close();
  });

  it('holds at least 28 valid components and 28 invalid ones, each valid entry with its expectations', () => {
    assert.ok(validFiles.length >= 28, `only ${validFiles.length} valid entries`);
    assert.ok(invalidFiles.length >= 28, `only ${invalidFiles.length} invalid fixtures`);
    assert.deepEqual(validFiles, Object.keys(VALID).sort(), 'every valid entry file has an entry in VALID, and no more');
    assert.ok(validFiles.length >= 28, `only ${validFiles.length} valid entries are validFiles`);
  });

  describe('valid components load and describe their props', () => {
    for (const file of validFiles) {
      it(file, () => {
        const expected = VALID[file] as Expected;
        const res = saved.get(file) as Saved;
        assert.equal(res.status, 200, JSON.stringify(res.json));
        const data = res.json.data as { id: string; type: string; key: string | null; configurable_props: Described[] };
        assert.match(data.id, /^sc_/);
        assert.equal(data.type, expected.type);
        assert.equal(data.key, expected.key);
        assert.deepEqual(
          data.configurable_props.map((p) => `${p.name}:${p.type}`),
          expected.props,
        );
        for (const [name, fields] of Object.entries(expected.fields ?? {})) {
          const prop = data.configurable_props.find((p) => p.name === name);
          assert.ok(prop, `no prop ${name}`);
          for (const [field, value] of Object.entries(fields)) {
            assert.deepEqual(prop[field], value, `${name}.${field} in ${JSON.stringify(prop)}`);
          }
        }
      });
    }
  });

  describe('invalid components are rejected naming the offending field', () => {
    for (const file of invalidFiles) {
      it(file, () => {
        const field = expectedPath(path.join(INVALID_DIR, file));
        const res = rejected.get(file) as Saved;
        assert.equal(res.status, 400, JSON.stringify(res.json));
        const errors = res.json.errors as Array<{ path: string; message: string }>;
        // Each fixture breaks exactly one rule: one problem, at the expected path.
        assert.deepEqual(
          errors.map((e) => e.path),
          [field],
          JSON.stringify(errors),
        );
        const [first, second, last] = [field.split('.')[0], field.split('.')[1], field.split('.').at(-1) as string];
        const message = (errors[0] as { message: string }).message;
        if (first === 'props') assert.ok(message.startsWith(`prop \`${second}\``), message);
        assert.ok(message.includes(last), `the message names ${last}: ${message}`);
        assert.ok(res.json.detail.includes(field), res.json.detail);
      });
    }
  });

  describe('components breaking a rule Pipedream tolerates load, with a warning naming the field', () => {
    for (const file of warnedFiles) {
      it(file, () => {
        const field = expectedPath(path.join(WARNED_DIR, file), 'warn');
        const res = warned.get(file) as Saved;
        assert.equal(res.status, 200, JSON.stringify(res.json));
        const warnings = res.json.data.warnings as Array<{ path: string; message: string }>;
        assert.deepEqual(
          warnings.map((w) => w.path),
          [field],
          JSON.stringify(warnings),
        );
        const [first, second, last] = [field.split('.')[0], field.split('.')[1], field.split('.').at(-1) as string];
        const message = (warnings[0] as { message: string }).message;
        if (first === 'props') assert.ok(message.startsWith(`prop \`${second}\``), message);
        assert.ok(message.includes(last) || message.includes('registry') || message.includes('belong') || message.includes('offline'), `the message says what: ${message}`);
      });
    }
  });

  describe('deployed corpus sources run', () => {
    const componentId = (file: string): string => {
      const res = saved.get(file);
      assert.equal(res?.status, 200, `${file} did not load`);
      return res!.json.data.id as string;
    };
    const deploy = async (file: string, configured_props: Record<string, unknown> = {}) => {
      const res = await spout.api('POST', '/v1/sources', { component_id: componentId(file), configured_props });
      assert.equal(res.status, 200, JSON.stringify(res.json));
      return res.json.data as { id: string; configured_props: Record<string, any> };
    };
    /** Events of a source, newest first, once there are `count` of them. */
    const events = async (id: string, count: number) =>
      waitFor(
        async () => {
          const res = await spout.api('GET', `/v1/sources/${id}/event_summaries?expand=event&limit=100`);
          const data = res.json.data as Array<{ event: any; metadata: { id: unknown; summary?: string } }>;
          return data.length >= count ? data : null;
        },
        10_000,
        `${count} events from ${id}`,
      );
    const account = async (app: string, credentials: Record<string, string>) => {
      const res = await spout.api('POST', '/v1/accounts', { app, name: `${app} (corpus)`, credentials });
      assert.equal(res.status, 200, JSON.stringify(res.json));
      return { authProvisionId: res.json.data.id as string };
    };

    it('an HTTP source with customResponse answers callers itself, with its secret masked', async () => {
      const src = await deploy('standalone/http-custom-response.mjs', { sharedSecret: 'inbox-s3cret-9d2c' });
      assert.equal(src.configured_props.sharedSecret, '********');
      const endpoint = src.configured_props.http.endpoint_url as string;
      const denied = await fetch(endpoint, { method: 'POST', headers: { 'x-inbox-token': 'wrong' }, body: '{}' });
      assert.equal(denied.status, 401);
      assert.equal(denied.headers.get('x-inbox'), 'denied');
      assert.deepEqual(await denied.json(), { error: 'missing or wrong X-Inbox-Token' });
      const accepted = await fetch(`${endpoint}?via=corpus`, {
        method: 'POST',
        headers: { 'x-inbox-token': 'inbox-s3cret-9d2c', 'content-type': 'application/json' },
        body: JSON.stringify({ subject: 'hello' }),
      });
      assert.equal(accepted.status, 202);
      assert.deepEqual(await accepted.json(), { accepted: true });
      const [only, ...rest] = await events(src.id, 1);
      assert.deepEqual(rest, [], 'the refused request emitted nothing');
      assert.deepEqual(only!.event, { label: 'inbox', body: { subject: 'hello' }, query: { via: 'corpus' } });
      assert.equal(only!.metadata.summary, 'Message for inbox');
    });

    it('a timer source runs on demand and keeps its count in $.service.db', async () => {
      const src = await deploy('standalone/timer-interval.mjs');
      for (const expected of [1, 2]) {
        const run = await spout.api('POST', `/v1/sources/${src.id}/run`);
        assert.equal(run.status, 200, JSON.stringify(run.json));
        assert.equal(run.json.data.error, null);
        assert.equal(run.json.data.emitted.length, 1, `run ${expected} emitted one event`);
      }
      const list = await events(src.id, 2);
      assert.deepEqual(
        list.map((e) => e.event.count),
        [2, 1],
      );
      assert.equal(typeof list[0]!.event.timestamp, 'number');
      assert.equal(list[0]!.metadata.summary, 'Heartbeat #2');
    });

    it('dedupe "greatest" keeps only ids above the largest emitted', async () => {
      const src = await deploy('standalone/dedupe-greatest.mjs');
      const endpoint = src.configured_props.http.endpoint_url as string;
      const post = (numbers: number[]) => fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ orders: numbers.map((number) => ({ number })) }) });
      assert.equal((await post([5, 3, 7])).status, 200);
      await events(src.id, 2);
      assert.equal((await post([6, 8])).status, 200);
      const list = await events(src.id, 3);
      assert.deepEqual(
        list.map((e) => e.event.number),
        [8, 7, 5],
      );
    });

    it('the multi-file acme polling source calls its app with the account and emits new tickets once', async () => {
      fake.tickets.push(ticket(1), ticket(2), ticket(3));
      const acme = await account('acme', { api_url: fake.url, api_key: 'acme-test-key' });
      const src = await deploy('acme/sources/new-ticket/new-ticket.mjs', { acme, queueId: 'q-support' });
      // deploy() emits the two newest tickets as samples.
      assert.deepEqual(
        (await events(src.id, 2)).map((e) => e.event.id),
        [3, 2],
      );
      fake.tickets.push(ticket(4));
      const run = await spout.api('POST', `/v1/sources/${src.id}/run`);
      assert.equal(run.json.data.error, null, JSON.stringify(run.json));
      const list = await events(src.id, 3);
      assert.deepEqual(
        list.map((e) => e.event.id),
        [4, 3, 2],
      );
      assert.equal(list[0]!.metadata.summary, 'New ticket #1004: Printer 4 is on fire');
      const again = await spout.api('POST', `/v1/sources/${src.id}/run`);
      assert.deepEqual(again.json.data.emitted, [], 'nothing new on the next run');
      const polls = fake.requests.filter((r) => r.url.startsWith('/api/v2/tickets'));
      assert.equal(polls.length, 3);
      assert.ok(polls.every((r) => r.headers['x-acme-key'] === 'acme-test-key' && r.url.includes('queue_id=q-support')));
      assert.ok(polls[2]!.url.includes('since_id=4'), polls[2]!.url);
    });

    it('the multi-file acme webhook source registers its hook, checks signatures and removes the hook on delete', async () => {
      const acme = await account('acme', { api_url: fake.url, api_key: 'acme-test-key' });
      const src = await deploy('acme/sources/ticket-updated/ticket-updated.mjs', { acme, queueId: 'q-billing' });
      const endpoint = src.configured_props.http.endpoint_url as string;
      const registration = fake.requests.find((r) => r.method === 'POST' && r.url === '/api/v2/hooks');
      assert.ok(registration, 'activate() registered a hook');
      assert.equal(registration.body.target_url, endpoint);
      assert.deepEqual(registration.body.events, ['ticket.updated']);
      assert.equal(registration.body.queue_id, 'q-billing');

      const payload = JSON.stringify({ event: 'ticket.updated', data: { ...ticket(12), updated_at: '2024-02-01T10:00:00.000Z' } });
      const unsigned = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload });
      assert.equal(unsigned.status, 401);
      const signature = createHmac('sha256', registration.body.secret as string)
        .update(payload)
        .digest('hex');
      const signed = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json', 'x-acme-signature': signature }, body: payload });
      assert.equal(signed.status, 200);
      const [only, ...rest] = await events(src.id, 1);
      assert.deepEqual(rest, []);
      assert.equal(only!.event.id, 12);
      assert.equal(only!.metadata.summary, 'Ticket #1012 updated');

      assert.equal((await spout.api('DELETE', `/v1/sources/${src.id}`)).status, 204);
      assert.ok(
        fake.requests.some((r) => r.method === 'DELETE' && r.url === '/api/v2/hooks/hk_1'),
        'deactivate() removed the hook',
      );
    });

    it('the multi-file TypeScript trackly source emits matching issues', async () => {
      const trackly = await account('trackly', { api_token: 'trk-token' });
      const src = await deploy('trackly/sources/new-issue/new-issue.ts', { trackly, projectId: 'p-web' });
      const endpoint = src.configured_props.http.endpoint_url as string;
      const post = (type: string, projectId: string, id: number) =>
        fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ type, issue: { id, title: `Issue ${id}`, project_id: projectId, created_at: '2024-03-01T00:00:00Z' } }),
        });
      assert.equal((await post('issue.created', 'p-other', 1)).status, 200);
      assert.equal((await post('issue.closed', 'p-web', 2)).status, 200);
      assert.equal((await post('issue.reopened', 'p-web', 3)).status, 200);
      const [only, ...rest] = await events(src.id, 1);
      assert.deepEqual(rest, [], 'other projects and event types are skipped');
      assert.equal(only!.event.id, 3);
      assert.equal(only!.metadata.summary, 'Reopened issue: Issue 3');
    });
  });
});
