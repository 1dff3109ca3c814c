// The OpenAPI 3.1 document of the service (`GET /v1/openapi.json`). Request parameters are
// generated from the zod schemas the routes validate with, so the document cannot drift from what
// the service accepts; test/api/openapi.test.ts checks that it lists exactly the routes registered.
import { z } from 'zod';
import { pageParams } from '../../lib/pagination';
import { cassetteSchema } from '../../store/cassette-schema';
import { settingsPatchSchema } from '../../store/service-settings';
import { linkChangeSchema } from '../../sync/links';
import { createSchema as accountCreate } from './account-routes';
import { runSchema as actionRun } from './action-routes';
import { checkSchema, configureSchema, deleteSchema, lintSchema, propsSchema, saveSchema } from './component-routes';
import { putRecordSchema, nameSchema as storeName } from './data-store-routes';
import { localTargetsSchema } from './delivery-target-check';
import { requestFields } from './exact-request';
import { listSchema as invocationList, replaySchema, runTestSchema } from './invocation-routes';
import { mcpSettingsSchema } from './mcp-settings-routes';
import { payloadSchema } from './payload-routes';
import { listSchema as registryList, searchSchema } from './registry-routes';
import { runNowSchema } from './run-now';
import { deleteEventsSchema, deploySchema, redeliverSchema, sourceListParams, updateSchema as sourceUpdate, summariesSchema } from './source-routes';
import { filterParam, savedFilterSchema, savedFiltersSchema, streamSchema } from './stream-routes';
import { autoSchema, subscriptionSchema } from './subscription-routes';
import { applySchema, linksQuery, planSchema, remoteSchema, statusQuery } from './sync-routes';
import { messagesSchema, recoverSchema } from './webhook-delivery-routes';
import { rotateSchema, createSchema as webhookCreate, updateSchema as webhookUpdate } from './webhook-routes';
import { importSchema, stepTestSchema, runSchema as workflowRun, workflowSchema } from './workflow-routes';

/** What the document says of one route: `params` is the zod schema its handler parses. */
interface RouteDoc {
  summary: string;
  params?: z.ZodType;
  /** The success status when it is not 200. */
  status?: 202 | 204;
  /** The answer is a page: `{page_info, data: [...]}`. */
  list?: boolean;
  /** A server-sent event stream. */
  stream?: boolean;
}

/** Every route, as `METHOD /path` in Express syntax (`:id`, `*key`). */
export const ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /v1/openapi.json': { summary: 'This document' },

  'POST /v1/webhooks': { summary: 'Create a webhook; the answer carries its signing_secret (once)', params: webhookCreate },
  'GET /v1/users/me/webhooks': { summary: 'List webhooks, newest first', params: pageParams, list: true },
  'GET /v1/webhooks/:id': { summary: 'Read a webhook' },
  'PUT /v1/webhooks/:id': { summary: 'Update a webhook (url, name, description, active, retry_schedule)', params: webhookUpdate },
  'DELETE /v1/webhooks/:id': { summary: 'Delete a webhook, its subscriptions and undelivered messages', status: 204 },
  'GET /v1/webhooks/:id/secret': { summary: "Read a webhook's signing secret" },
  'POST /v1/webhooks/:id/secret/rotate': { summary: 'Rotate the signing secret; the old one signs beside it for grace_seconds', params: rotateSchema },
  'GET /v1/webhooks/:id/messages': { summary: 'Delivery messages to this webhook, newest first', params: messagesSchema, list: true },
  'GET /v1/webhooks/:id/messages/:msg/attempts': { summary: "A message's attempts, newest first", params: pageParams, list: true },
  'POST /v1/webhooks/:id/messages/:msg/resend': { summary: 'One manual attempt of a message now', status: 202 },
  'POST /v1/webhooks/:id/recover': { summary: 'One manual attempt of every failed message that matches the filters (status, source, event_name, since, until)', params: recoverSchema, status: 202 },
  'POST /v1/webhooks/:id/pause': { summary: "Hold the webhook's queue: nothing is attempted until resumed" },
  'POST /v1/webhooks/:id/resume': { summary: 'Deliver what was held, in the order it was created, then carry on' },

  'POST /v1/subscriptions': { summary: 'Subscribe a listener (webhook, source or workflow) to an emitter', params: subscriptionSchema },
  'DELETE /v1/subscriptions': { summary: 'Delete a subscription', params: subscriptionSchema, status: 204 },
  'GET /v1/users/me/subscriptions': { summary: 'List subscriptions', params: pageParams, list: true },
  'POST /v1/auto_subscriptions': { summary: 'Subscribe a listener to a channel of every emitter created later', params: autoSchema },
  'DELETE /v1/auto_subscriptions': { summary: 'Delete an auto-subscription (subscriptions it made stay)', params: autoSchema, status: 204 },
  'GET /v1/users/me/auto_subscriptions': { summary: 'List auto-subscriptions', params: pageParams, list: true },

  'POST /v1/components': { summary: 'Save (validate) a component from its code or a URL', params: saveSchema },
  'POST /v1/components/check': { summary: 'What saving a component would answer (400 with every problem, or its view), with nothing saved', params: saveSchema },
  'GET /v1/users/me/components': { summary: 'List saved components, newest first, each with what uses it (used_by)', params: pageParams, list: true },
  'GET /v1/components/:id': { summary: 'Read a saved component by id or key, with its code and filename' },
  'DELETE /v1/components/:id': { summary: 'Delete a saved component (a key: every saved version, or with unused_only=true those nothing uses), its test runs and cassette (409 naming the sources and workflows that use it)', params: deleteSchema, status: 204 },
  'POST /v1/components/lint': { summary: "Check a component's code without saving it: its errors and warnings", params: lintSchema },
  'POST /v1/components/configure': { summary: "Run a prop's async options method (of a component by id, or of component_code not saved)", params: configureSchema },
  'POST /v1/components/props': { summary: 'Run additionalProps: the merged prop set for the values given (by id, or of component_code not saved)', params: propsSchema },
  'POST /v1/components/props/check': { summary: 'Check prop values with the rules a deploy applies, without deploying', params: checkSchema },
  'GET /v1/components/registry': { summary: 'List the local registry', params: registryList, list: true },
  'GET /v1/components/registry/:key': { summary: 'Read a registry component, with its code' },
  'GET /v1/components/search': { summary: 'Search the registry', params: searchSchema },

  'POST /v1/sources': { summary: 'Deploy a source', params: deploySchema },
  'GET /v1/users/me/sources': { summary: "List sources, newest first; expand=activity adds each one's last event time and recent error lines", params: sourceListParams, list: true },
  'GET /v1/sources/:id': { summary: 'Read a source (id or name slug), with the code it runs and its filename' },
  'GET /v1/sources/:id/secrets': { summary: "A source's secret props in clear (API key only, never a browser session; for sync --with-secrets)" },
  'PUT /v1/sources/:id': { summary: "Update a source's code, name, props, active state or timeout", params: sourceUpdate },
  'DELETE /v1/sources/:id': { summary: 'Delete a source (its deactivate hook runs)', status: 204 },
  'POST /v1/sources/:id/run': { summary: 'Run a source now; answers once the run has ended. A source with an HTTP interface (and no timer, or trigger http) is sent a request: the given one, a saved payload, or its last request', params: runNowSchema },
  'GET /v1/sources/:id/run/request': { summary: 'The request run now sends a source with an HTTP interface when given none: its last request, else the default' },
  'GET /v1/sources/:id/payloads': { summary: "A source's saved test payloads, newest first", params: pageParams, list: true },
  'POST /v1/sources/:id/payloads': { summary: 'Save a test payload (a named request run now can send); at most 20 per source, 256 KB each', params: payloadSchema },
  'GET /v1/sources/:id/payloads/:name': { summary: 'One saved test payload' },
  'PUT /v1/sources/:id/payloads/:name': { summary: 'Save or replace a test payload', params: requestFields },
  'DELETE /v1/sources/:id/payloads/:name': { summary: 'Delete a saved test payload', status: 204 },
  'GET /v1/sources/:id/event_summaries': { summary: "A source's events, newest first", params: summariesSchema, list: true },
  'GET /v1/sources/:id/event_summaries/:event': { summary: 'One event of a source by id, with its data in full' },
  'DELETE /v1/sources/:id/events': { summary: 'Delete a range of events (none given: all)', params: deleteEventsSchema, status: 202 },
  'POST /v1/sources/:id/events/:event/redeliver': { summary: 'Send one stored event to a webhook as a new message', params: redeliverSchema, status: 202 },
  'GET /v1/sources/:id/logs': { summary: "A source's log lines, newest first (kept across restarts); `filter`: bare words search the message, other terms the run that wrote it", params: streamSchema, list: true },
  'GET /v1/sources/:id/invocations': { summary: "A source's recorded runs, newest first: filter by status, trigger, time; search text", params: invocationList, list: true },
  'GET /v1/components/:id/invocations': { summary: "An action's recorded runs (test runs and workflow steps), newest first", params: invocationList, list: true },
  'GET /v1/invocations/:id': { summary: 'A recorded run: request and answer, event, logs, emits, error (mapped stack), and the deliveries its events caused' },
  'GET /v1/sources/:id/cassette': { summary: "A source's recorded outgoing calls and how they are matched" },
  'PUT /v1/sources/:id/cassette': { summary: "Replace a source's cassette (recorded, or entries written by hand)", params: cassetteSchema },
  'GET /v1/components/:id/cassette': { summary: "An action's recorded outgoing calls (test runs)" },
  'PUT /v1/components/:id/cassette': { summary: "Replace an action's cassette", params: cassetteSchema },
  'GET /v1/invocations/:id/test': { summary: "A test of a source's run: files NAME.test.mjs (node:test + spout/testing) and NAME.cassette.json (its calls), to put beside the component", params: runTestSchema },
  'GET /v1/invocations/:id/cassette-skeleton': { summary: "The run's calls no recording answered (network mode discover lists them all) as entries to fill in, after its owner's cassette" },
  'POST /v1/invocations/:id/replay': { summary: "Run a recorded run again against the source's current code; an HTTP request may be edited", params: replaySchema },

  'POST /v1/actions/run': { summary: 'Test-run an action once', params: actionRun },
  'GET /v1/users/me/actions': { summary: 'Saved actions, one per key, newest saved first: each with its versions and last run', params: pageParams, list: true },
  'GET /v1/actions/:ref': { summary: 'A saved action by key or by the id of any of its versions: its versions and last run' },
  'GET /v1/outbox': { summary: "Actions' $.send calls, newest first", params: pageParams, list: true },

  'POST /v1/workflows': { summary: 'Create a workflow', params: workflowSchema },
  'POST /v1/workflows/import': { summary: 'Create a workflow from an exported definition', params: importSchema },
  'GET /v1/users/me/workflows': { summary: 'List workflows', params: pageParams, list: true },
  'GET /v1/workflows/:id': { summary: 'Read a workflow' },
  'PUT /v1/workflows/:id': { summary: 'Update a workflow', params: workflowSchema },
  'DELETE /v1/workflows/:id': { summary: 'Delete a workflow', status: 204 },
  'GET /v1/workflows/:id/export': { summary: "A workflow's definition as JSON (components as code, secrets masked)" },
  'GET /v1/workflows/:id/secrets': { summary: "Each step's secret props in clear (API key only; for sync --with-secrets)" },
  'POST /v1/workflows/:id/run': { summary: 'Run a workflow now', params: workflowRun },
  'GET /v1/workflows/:id/runs': { summary: "A workflow's latest runs", params: pageParams, list: true },
  'POST /v1/workflows/:id/runs/:run/replay': { summary: 'Run a recorded run again with its trigger event' },
  'POST /v1/workflows/:id/steps/:step/test': { summary: 'Test one step alone against an event, nothing recorded or delivered (docs/api.md)', params: stepTestSchema },
  'GET /v1/workflows/:id/event_summaries': { summary: "A workflow's emitted events", params: pageParams, list: true },

  'POST /v1/accounts': { summary: 'Connect an account (credentials sealed at rest)', params: accountCreate },
  'GET /v1/accounts': { summary: 'List connected accounts', params: pageParams, list: true },
  'GET /v1/accounts/:id': { summary: 'Read an account (credentials masked)' },
  'GET /v1/accounts/:id/credentials': { summary: "An account's credentials in clear (API key only; for sync --with-secrets)" },
  'DELETE /v1/accounts/:id': { summary: 'Delete an account (409 while a source uses it)', status: 204 },
  'GET /v1/accounts/:id/cassette': { summary: "The Connect proxy's recorded calls made with this account" },
  'PUT /v1/accounts/:id/cassette': { summary: "Replace the Connect proxy's recorded calls of this account", params: cassetteSchema },

  'POST /v1/data_stores': { summary: 'Create a data store', params: storeName },
  'GET /v1/data_stores': { summary: 'List data stores', params: pageParams, list: true },
  'GET /v1/data_stores/:id': { summary: 'Read a data store' },
  'PUT /v1/data_stores/:id': { summary: 'Rename a data store', params: storeName },
  'DELETE /v1/data_stores/:id': { summary: 'Delete a data store (409 while a source uses it)', status: 204 },
  'GET /v1/data_stores/:id/records': { summary: 'List records by key', params: pageParams, list: true },
  'DELETE /v1/data_stores/:id/records': { summary: 'Clear a data store', status: 204 },
  'GET /v1/data_stores/:id/records/*key': { summary: 'Read a record (the key is the rest of the path)' },
  'PUT /v1/data_stores/:id/records/*key': { summary: 'Write a record, with an optional ttl in seconds', params: putRecordSchema },
  'DELETE /v1/data_stores/:id/records/*key': { summary: 'Delete a record', status: 204 },

  'GET /v1/remotes': { summary: 'Remote instances: the `spout login` profiles (never their keys)' },
  'POST /v1/remotes': { summary: 'Save a remote instance profile (a Spout or Pipedream), its key checked first', params: remoteSchema },
  'DELETE /v1/remotes/:name': { summary: 'Remove a remote instance profile', status: 204 },
  'POST /v1/remotes/:name/test': { summary: "Check a remote's address and key: {ok, detail}" },
  'POST /v1/sync/plan': { summary: 'What a push to (or pull from) a remote would create, update, replace or delete, with diffs and conflicts', params: planSchema },
  'POST /v1/sync/apply': { summary: 'Apply a push or pull in the background; follow it with GET /v1/sync/jobs/{id}', params: applySchema, status: 202 },
  'GET /v1/sync/jobs/:id': { summary: 'An apply as it goes: each step, then its result' },
  'GET /v1/sync/status': { summary: 'Where this instance and a remote stand: linked resources, what a push and a pull would do', params: statusQuery },
  'GET /v1/sync/links': { summary: 'The local ↔ remote ids sync keeps for a remote (by its links key)', params: linksQuery },
  'POST /v1/sync/links': { summary: 'Change the links kept for a remote (the CLI saves each applied step)', params: linkChangeSchema, status: 204 },

  'GET /v1/stream': { summary: 'Runs and events of every source, action and workflow, newest first, matching `filter` (docs/api.md "Filters")', params: streamSchema, list: true },
  'GET /v1/stream/count': { summary: 'The exact number of stream rows matching `filter`, for a page whose `total_count` was a lower bound (`page_info.total_partial`)', params: filterParam },
  'GET /v1/stream/filters': { summary: "The stream's saved filters" },
  'PUT /v1/stream/filters': { summary: "Replace the stream's saved filters (names 1-80 characters and unique; each filter must parse)", params: savedFiltersSchema },
  'PUT /v1/stream/filters/{name}': { summary: 'Save one filter under a name (the same name replaces it, in its place; the filter must parse)', params: savedFilterSchema },
  'DELETE /v1/stream/filters/{name}': { summary: 'Delete the saved filter of that name' },
  'GET /v1/settings': { summary: 'How the service runs (never the API key)' },
  'PATCH /v1/settings': { summary: 'Change settings (retry schedule, delivery timeout, disable after, retention, run timeout, host parking): saved in the data dir and applied at once; a flag given at start wins for that run; null: back to the default', params: settingsPatchSchema },
  'POST /v1/settings/api-key/rotate': { summary: 'Replace the API key kept in the data dir' },
  'POST /v1/ui/sign-in-links': { summary: 'A new one-time link that signs one browser in to the UI (the API key only, never a browser session)' },
  'GET /v1/mcp/settings': { summary: "The MCP server's settings: hidden saved actions, registry apps, the account per app, network modes" },
  'PUT /v1/mcp/settings': { summary: 'Change the MCP settings (each field given replaces that setting); connected MCP clients hear of the new tools', params: mcpSettingsSchema },
  'GET /v1/mcp/tools': { summary: 'Every candidate MCP tool (hidden saved actions too) with its input schema, account bindings and network mode', params: pageParams, list: true },
  'GET /v1/mcp/snippets': { summary: 'How MCP clients reach this service: the stdio command, the HTTP endpoint, and configurations to paste' },
  'GET /v1/settings/connect': { summary: "The Connect project credentials @pipedream/sdk is configured with (docs/connect.md; the Connect API itself follows Pipedream's reference)" },
  'PUT /v1/settings/connect': { summary: "Let the Connect project's end users and proxy reach this machine, or not (docs/security.md)", params: localTargetsSchema },
  'POST /v1/settings/connect/rotate': { summary: 'Replace the Connect client id and secret' },

  'GET /sse/dc/:id/emits': { summary: "A source's events as they are emitted (Last-Event-ID resumes)", stream: true },
  'GET /sse/dc/:id/invocations': { summary: "A source's runs as they are recorded (Last-Event-ID resumes)", stream: true },
  'GET /sse/dc/:id/observations': { summary: "A source's log lines as they are written (Last-Event-ID resumes)", stream: true },
  'GET /sse/stream': { summary: 'New rows of the stream matching `filter` as they are recorded (Last-Event-ID, a row cursor, resumes)', params: filterParam, stream: true },
};

/** `/v1/sources/:id/records/*key` → `/v1/sources/{id}/records/{key}`. */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/[:*]([A-Za-z_]+)/g, '{$1}');
}

const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;

const problem = { description: 'A problem (application/problem+json)', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } };

function operation(method: string, path: string, doc: RouteDoc): Record<string, unknown> {
  const pathParams = [...path.matchAll(/[:*]([A-Za-z_]+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
  const op: Record<string, unknown> = { summary: doc.summary, tags: [path.split('/')[path.startsWith('/sse') ? 1 : 2]], operationId: `${method.toLowerCase()}${openApiPath(path).replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}` };
  const parameters: unknown[] = [...pathParams];
  if (doc.params) {
    const schema = jsonSchema(doc.params);
    if (method === 'GET') {
      const props = (schema.properties ?? {}) as Record<string, unknown>;
      const required = new Set((schema.required ?? []) as string[]);
      for (const [name, s] of Object.entries(props)) parameters.push({ name, in: 'query', required: required.has(name), schema: s });
    } else {
      // Parameters may also come in the query string; the JSON body wins.
      op.requestBody = { required: false, content: { 'application/json': { schema } } };
    }
  }
  if (parameters.length) op.parameters = parameters;
  const ok = doc.stream
    ? { description: 'text/event-stream: `id:` the item id, `event:` its channel, `data:` its JSON', content: { 'text/event-stream': { schema: { type: 'string' } } } }
    : doc.status === 204
      ? { description: 'Done; no body' }
      : { description: doc.list ? 'A page of items' : 'The object', content: { 'application/json': { schema: { $ref: doc.list ? '#/components/schemas/Page' : '#/components/schemas/Data' } } } };
  op.responses = { [String(doc.status ?? 200)]: ok, '400': problem, '401': problem, '404': problem };
  return op;
}

/** The OpenAPI 3.1 document for a service at `baseUrl`. */
export function openApiDocument(baseUrl: string, version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [key, doc] of Object.entries(ROUTE_DOCS)) {
    const [method, path] = key.split(' ') as [string, string];
    (paths[openApiPath(path)] ??= {})[method.toLowerCase()] = operation(method, path, doc);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Spout API',
      version,
      description:
        'The local Spout service: components, sources, events, webhooks and their deliveries. Every call needs `Authorization: Bearer <api key>`. Parameters may come in the query string or a JSON body (the body wins). Timestamps are epoch seconds. Errors are application/problem+json; validation errors list every problem in `errors`.',
    },
    servers: [{ url: baseUrl }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'The API key (DATA_DIR/api-key, --api-key or SPOUT_API_KEY)' } },
      schemas: {
        Data: { type: 'object', properties: { data: { type: 'object' } }, required: ['data'] },
        Page: {
          type: 'object',
          properties: {
            page_info: { type: 'object', properties: { total_count: { type: 'integer' }, count: { type: 'integer' }, start_cursor: { type: ['string', 'null'] }, end_cursor: { type: ['string', 'null'] } } },
            data: { type: 'array', items: { type: 'object' } },
          },
          required: ['page_info', 'data'],
        },
        Problem: {
          type: 'object',
          properties: {
            type: { type: 'string' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            error: { type: 'string', description: 'repeats detail (Pipedream clients read it)' },
            errors: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } },
          },
          required: ['type', 'title', 'status', 'detail'],
        },
      },
    },
  };
}
