// Tools that change what is deployed: deploy, update and delete a source. What an agent deploys is
// deployed as anything else is (ctx.sources), so it runs in the same sandbox with the same limits.
import { z } from 'zod';
import type { SourceRecord } from '../../../store/metadata';
import { sourceView } from '../../api/views';
import { notFound } from '../../edge/error-statuses';
import { boundedResult } from './dev-bounds';
import { type ComponentText, componentInput, componentText } from './dev-component-text';
import { type DevSession, type DevTool, devTool } from './dev-tool-kit';

/** How a source's outgoing calls are served (docs/runtime.md). */
export const networkMode = z.enum(['live', 'record', 'replay', 'replay-or-live']).optional().describe('How outgoing HTTP calls are served: live (default), record, replay (from the cassette, no network), replay-or-live');

/** App props bound to connected accounts, `{prop: "apn_…"}`. */
export const accountsInput = z
  .record(z.string(), z.string().regex(/^apn_[A-Za-z0-9_-]+$/, 'must be a connected account id (apn_…)'))
  .optional()
  .describe('App props bound to connected accounts: {"acme": "apn_…"}');

/** Values of the component's props. */
export const propsInput = z.record(z.string(), z.unknown()).optional().describe('Values of the props, by name');

/** Configured props with each account bound as `{authProvisionId}`. */
export function withAccounts(props: Record<string, unknown> | undefined, accounts: Record<string, string> | undefined): Record<string, unknown> | undefined {
  if (!accounts) return props;
  return { ...props, ...Object.fromEntries(Object.entries(accounts).map(([prop, id]) => [prop, { authProvisionId: id }])) };
}

/** The deployed source an id (or name slug) names. */
export function sourceOf(session: DevSession, id: string): SourceRecord {
  const source = session.ctx.sources.find(id);
  if (!source) throw notFound('source', id);
  return source;
}

/** What deploy and update answer: the source, where to send requests, its timers and warnings. */
function deployed(session: DevSession, source: SourceRecord, text: ComponentText | null): ReturnType<typeof boundedResult> {
  const { ctx } = session;
  if (text?.file) session.files.set(source.id, text.file);
  const component = ctx.sources.component(source);
  const view = sourceView(source, component, ctx.endpointUrl, ctx.sources.timersOf(source), ctx.sources.hostState(source));
  const endpoints = Object.fromEntries(Object.entries(source.endpoints).map(([prop, id]) => [prop, ctx.endpointUrl(id)]));
  const result = { source_id: source.id, name: view.name, active: view.active, component_key: component?.key ?? null, file: session.files.get(source.id) ?? null, endpoints, timers: view.timers, warnings: component?.warnings ?? [] };
  return boundedResult(result, `${source.id} (${view.name}) is deployed${Object.keys(endpoints).length ? `; send_http sends it requests` : ''}`);
}

const sourceId = z.string().min(1).max(200).describe('The source id (dc_…)');

/** The source tools: deploy_source, update_source, delete_source. */
export const SOURCE_TOOLS: DevTool[] = [
  devTool({
    name: 'deploy_source',
    title: 'Deploy a source',
    description: 'Deploys a source component from a file under the allowed folders (or inline code) with its props, accounts and network mode; runs its deploy and activate hooks. Answers the source id, its endpoint URLs and timers.',
    input: z.object({ ...componentInput, name: z.string().min(1).max(200).optional(), props: propsInput, accounts: accountsInput, network_mode: networkMode }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: async (input, session) => {
      const text = componentText(session, input, 'source.mjs');
      const source = await session.ctx.sources.deploy({ code: text.code, filename: text.filename, name: input.name, configured_props: withAccounts(input.props, input.accounts), network_mode: input.network_mode, changed_by: 'api' });
      return deployed(session, source, text);
    },
  }),
  devTool({
    name: 'update_source',
    title: 'Update a source',
    description: 'Updates a deployed source: new code from its file (read again when neither file nor code is given and it was deployed from one), new props, accounts or network mode. Runs deactivate then activate; a failing hook keeps the previous version.',
    input: z.object({ source_id: sourceId, ...componentInput, props: propsInput, accounts: accountsInput, network_mode: networkMode }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (input, session) => {
      const source = sourceOf(session, input.source_id);
      const known = session.files.get(source.id);
      const named = input.file ?? input.code;
      const text = named !== undefined ? componentText(session, input, 'source.mjs') : known ? componentText(session, { file: known }, 'source.mjs') : null;
      const updated = await session.ctx.sources.update(source, { code: text?.code, filename: text?.filename, configured_props: withAccounts(input.props, input.accounts), network_mode: input.network_mode, change: { by: 'api' } });
      return deployed(session, updated, text);
    },
  }),
  devTool({
    name: 'delete_source',
    title: 'Delete a source',
    description: 'Deletes a deployed source with all its data: events, runs, logs, db. It cannot be undone.',
    input: z.object({ source_id: sourceId }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async ({ source_id }, session) => {
      const source = sourceOf(session, source_id);
      await session.ctx.sources.remove(source);
      session.files.delete(source.id);
      return boundedResult({ deleted: source.id }, `${source.id} is deleted`);
    },
  }),
];
