// The tools of Spout's MCP server (docs/mcp.md): the catalog's exposed actions with their input
// schemas, and the two helper tools that let an agent find valid values (async options) and the
// props a `reloadProps` prop brings. A call runs through the same action-run path as a test run
// (ComponentSessions.runAction): the same host limits, the action's network mode, and a record.
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ActionRunView } from '../../contract/action-api';
import { ComponentError } from '../../lib/error-kinds';
import { maskSecrets } from '../../props/secret/secret-values';
import type { ComponentRecord } from '../../store/metadata';
import type { ComponentSessions } from '../sessions/component-sessions';
import type { CatalogEntry, ToolCatalog, ToolScope } from './tool-catalog';
import { isBoundProp, OPTIONS_TOOL, RELOAD_TOOL, type StoreChoice, toolInput } from './tool-schema';

/** What every action tool answers as structured content. */
const ACTION_OUTPUT = {
  type: 'object' as const,
  properties: {
    return_value: { description: 'What the action returned (null when nothing)' },
    exports: { type: 'object', description: 'What the action exported with $.export, $summary among them' },
  },
  required: ['return_value', 'exports'],
};

const optionsInput = z.object({
  tool: z.string(),
  prop: z.string(),
  configured_props: z.record(z.string(), z.unknown()).optional(),
  query: z.string().max(10_000).optional(),
  page: z.number().int().min(0).optional(),
  prev_context: z.record(z.string(), z.unknown()).nullable().optional(),
});

const reloadInput = z.object({ tool: z.string(), configured_props: z.record(z.string(), z.unknown()).optional() });

/** The MCP session a call comes from: its choices over the settings, and the client's name. */
export interface CallContext {
  scope: ToolScope;
  /** `name version` from the client's `initialize`. */
  client: string | null;
}

export interface McpToolsDeps {
  catalog: ToolCatalog;
  sessions: ComponentSessions;
  /** Data stores an agent may name for `data_store` props. */
  stores: () => Promise<StoreChoice[]>;
  /** The saved component of a registry key (saved on its first use). */
  registryComponent: (key: string) => Promise<ComponentRecord | undefined>;
}

/** A tool result that says what went wrong, for the agent to act on. */
function failure(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/** A thrown error in words: a component's problems one per line, said to be the arguments' when they are. */
function messageOf(err: unknown): string {
  if (!(err instanceof ComponentError)) return err instanceof Error ? err.message : String(err);
  const ofArguments = err.problems.every((p) => p.path.startsWith('configured_props.'));
  return `${ofArguments ? 'the arguments do not fit the action' : 'the action could not run'}:\n${err.problems.map((p) => `- ${p.path && !ofArguments ? `${p.path}: ` : ''}${p.message}`).join('\n')}`;
}

/** A helper tool: it reads (runs a component's options or additionalProps) and is about one of `tools`, named by `tool`. */
function helperTool(name: string, title: string, description: string, tools: string[], properties: Record<string, object>, required: string[]): Tool {
  return {
    name,
    title,
    description,
    inputSchema: { type: 'object', properties: { tool: { type: 'string', enum: tools, description: 'The tool it is about' }, ...properties }, required: ['tool', ...required] },
    annotations: { readOnlyHint: true },
  };
}

/** A helper tool's bad arguments in words. */
function issuesOf(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ');
}

/** An action run as a tool result: `$summary` as text, the return value and exports as structured content. */
function resultOf(answer: ActionRunView): CallToolResult {
  const _meta = { 'spout/invocation_id': answer.invocation_id };
  if (answer.error) {
    const head = `${answer.error.name}: ${answer.error.message}`;
    const stack = answer.error.stack;
    return { isError: true, content: [{ type: 'text', text: stack?.startsWith(head) ? stack : [head, stack].filter(Boolean).join('\n\n') }], _meta };
  }
  const structured = { return_value: answer.ret ?? null, exports: answer.exports };
  const content: CallToolResult['content'] = [];
  if (answer.exports.$summary !== undefined) content.push({ type: 'text', text: String(answer.exports.$summary) });
  if (answer.exit) content.push({ type: 'text', text: `The action ended the flow ($.flow.exit)${answer.exit.reason ? `: ${answer.exit.reason}` : ''}` });
  // Clients that read only text get the structured content too (the MCP spec asks for it).
  content.push({ type: 'text', text: JSON.stringify(structured) });
  return { content, structuredContent: structured, _meta };
}

/** Lists and calls the tools one MCP session sees. */
export class McpTools {
  constructor(private readonly deps: McpToolsDeps) {}

  /** The exposed tools as `tools/list` answers them, helper tools last (only when some tool needs them). */
  async list(scope: ToolScope): Promise<Tool[]> {
    const stores = await this.deps.stores();
    const tools: Tool[] = [];
    const optionsFor: string[] = [];
    const reloadFor: string[] = [];
    for (const entry of await this.exposed(scope)) {
      const input = toolInput(entry.props, entry.name, stores);
      if (input.remoteOptions.length > 0) optionsFor.push(entry.name);
      if (input.dynamic) reloadFor.push(entry.name);
      const about = entry.description?.trim() || entry.title;
      const reload = input.dynamic ? `\n\nSome props change which others it takes: call ${RELOAD_TOOL} for the complete input schema once they are chosen.` : '';
      tools.push({ name: entry.name, title: entry.title, description: `${about}${reload}`, inputSchema: { ...input.schema }, outputSchema: ACTION_OUTPUT });
    }
    if (optionsFor.length > 0) {
      tools.push(
        helperTool(
          OPTIONS_TOOL,
          'Valid values of a prop',
          "Lists the valid values of a tool's prop whose description says to call this tool (the values come from the action's own options method). Give the values chosen so far for other props as configured_props; page through with page or prev_context; filter with query.",
          optionsFor,
          {
            prop: { type: 'string', description: 'The prop (argument) name' },
            configured_props: { type: 'object', description: "Values chosen so far for the tool's other props" },
            query: { type: 'string', description: 'Text to filter the values by (props that search)' },
            page: { type: 'integer', minimum: 0, description: 'Page number, from 0' },
            prev_context: { type: 'object', description: 'The context the previous page answered, for the next page' },
          },
          ['prop'],
        ),
      );
    }
    if (reloadFor.length > 0) {
      tools.push(
        helperTool(
          RELOAD_TOOL,
          "A tool's complete input schema",
          'Answers the complete input schema of a tool whose props change with the values of others (props marked as doing so), for the values given. Call the tool itself afterwards with every value.',
          reloadFor,
          { configured_props: { type: 'object', description: 'The values chosen so far' } },
          [],
        ),
      );
    }
    return tools;
  }

  /** Runs a tool call; an unknown tool is null (the protocol's error, not the tool's). */
  async call(name: string, args: Record<string, unknown>, context: CallContext): Promise<CallToolResult | null> {
    if (name === OPTIONS_TOOL) {
      const input = optionsInput.safeParse(args);
      if (!input.success) return failure(issuesOf(input.error));
      const entry = await this.find(input.data.tool, context.scope);
      return entry ? this.options(entry, input.data, context) : failure(`no tool ${input.data.tool}; tools/list names them`);
    }
    if (name === RELOAD_TOOL) {
      const input = reloadInput.safeParse(args);
      if (!input.success) return failure(issuesOf(input.error));
      const entry = await this.find(input.data.tool, context.scope);
      return entry ? this.reload(entry, input.data.configured_props ?? {}, context) : failure(`no tool ${input.data.tool}; tools/list names them`);
    }
    const entry = await this.find(name, context.scope);
    if (!entry) return null;
    const prepared = this.configured(entry, args, context.scope);
    if (typeof prepared === 'string') return failure(prepared);
    try {
      const component = await this.component(entry);
      const via = { kind: 'mcp' as const, tool: entry.name, arguments: maskSecrets(entry.props, args), client: context.client };
      return resultOf(await this.deps.sessions.runAction(component, prepared, {}, { jit: true, network: entry.network, via }));
    } catch (err) {
      return failure(messageOf(err));
    }
  }

  private async options(entry: CatalogEntry, input: z.infer<typeof optionsInput>, context: CallContext): Promise<CallToolResult> {
    const prop = entry.props.find((p) => p.name === input.prop);
    if (prop && isBoundProp(prop)) return failure(`prop ${input.prop} is set by Spout, not chosen from values`);
    const configured = this.configured(entry, input.configured_props ?? {}, context.scope);
    if (typeof configured === 'string') return failure(configured);
    try {
      const component = await this.component(entry);
      const answer = await this.deps.sessions.options(component, { prop: input.prop, configured, page: input.page ?? 0, prevContext: input.prev_context ?? {}, query: input.query });
      if (answer.errors.length > 0) return failure(`the options of ${input.prop} could not be listed: ${answer.errors.join('; ')}`);
      const structured = { options: answer.options, context: answer.context ?? null };
      return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
    } catch (err) {
      return failure(messageOf(err));
    }
  }

  private async reload(entry: CatalogEntry, given: Record<string, unknown>, context: CallContext): Promise<CallToolResult> {
    const configured = this.configured(entry, given, context.scope);
    if (typeof configured === 'string') return failure(configured);
    try {
      const component = await this.component(entry);
      const { configurable_props } = await this.deps.sessions.props(component, configured);
      const structured = { input_schema: toolInput(configurable_props, entry.name, await this.deps.stores()).schema };
      return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
    } catch (err) {
      return failure(messageOf(err));
    }
  }

  private async exposed(scope: ToolScope): Promise<CatalogEntry[]> {
    return (await this.deps.catalog.entries(scope)).filter((e) => e.exposed);
  }

  private async find(name: string, scope: ToolScope): Promise<CatalogEntry | undefined> {
    return (await this.exposed(scope)).find((e) => e.name === name);
  }

  /** The saved component a tool runs (a registry action is saved on its first call). */
  private async component(entry: CatalogEntry): Promise<ComponentRecord> {
    const component = entry.component ?? (entry.key ? await this.deps.registryComponent(entry.key) : undefined);
    if (!component) throw new Error(`the action behind ${entry.name} is gone from the registry; list the tools again`);
    return component;
  }

  /**
   * An agent's arguments as configured props: accounts bound by Spout, a data store named by id
   * wrapped as `{dataStore}`, a null left out. A string says what is wrong with them instead.
   */
  private configured(entry: CatalogEntry, args: Record<string, unknown>, scope: ToolScope): Record<string, unknown> | string {
    const input = toolInput(entry.props, entry.name, []);
    const byName = new Map(entry.props.map((p) => [p.name, p]));
    const problems: string[] = [];
    const configured: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(args)) {
      const prop = byName.get(name);
      if (prop && isBoundProp(prop)) problems.push(`\`${name}\` is set by Spout${prop.type === 'app' ? ' (the account chosen in its MCP settings)' : ''}; leave it out`);
      else if (!(name in input.schema.properties) && !input.dynamic) {
        const known = Object.keys(input.schema.properties);
        problems.push(`${entry.name} has no argument \`${name}\`; it takes ${known.length > 0 ? known.map((n) => `\`${n}\``).join(', ') : 'none'}`);
      } else if (value !== null && value !== undefined) configured[name] = input.storeProps.includes(name) && typeof value === 'string' ? { dataStore: value } : value;
    }
    for (const binding of this.deps.catalog.accounts(entry, scope)) {
      if (binding.status === 'choose') problems.push(binding.problem ?? `choose an account for app "${binding.app}"`);
      else if (binding.account_id) configured[binding.prop] = { authProvisionId: binding.account_id };
    }
    return problems.length > 0 ? problems.join('\n') : configured;
  }
}
