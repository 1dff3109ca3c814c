// One MCP session's server (the SDK's low-level Server: tool schemas are JSON Schema computed from
// props, not zod): tools and source-event resources, `tools/list_changed` when the tools it last
// listed change, and `resources/updated` for each subscribed source that emits.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema, McpError, ReadResourceRequestSchema, SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpTools } from '../../engine/tools/mcp-tools';
import type { ToolCatalog, ToolScope } from '../../engine/tools/tool-catalog';
import type { ApiContext } from '../api/api-context';
import { DEV_INSTRUCTIONS, type DevToolset } from './dev/dev-toolset';
import { EVENT_TEMPLATE, readEvents, sourceResources, watchEvents } from './event-resources';

/** What the server tells an agent about itself at `initialize`. */
const INSTRUCTIONS = [
  "Spout runs the user's Pipedream-style actions on their own machine. Each tool runs one action in a sandbox; every call is recorded in Spout's activity with its arguments and result.",
  'Accounts of apps are chosen by the user in Spout, never given as arguments.',
  "When a prop's description says its values come from spout_prop_options, call that tool for valid values; when it says props change, call spout_reload_props for the complete schema.",
  "Resources hold each source's latest events (subscribe to hear when it emits).",
].join(' ');

/** Changes to the tools within this long are announced once. */
const SETTLE_MS = 100;

export interface SessionServerDeps {
  ctx: Pick<ApiContext, 'sources' | 'events'>;
  catalog: ToolCatalog;
  tools: McpTools;
  scope: ToolScope;
  /** The developer toolset, when the session asked for it: its tools replace the actions'. */
  dev?: DevToolset;
}

/** The server of one session; it lets go of its listeners when it closes. */
export function sessionServer(deps: SessionServerDeps): Server {
  const server = new Server({ name: 'spout', title: 'Spout', version: process.env.SPOUT_VERSION ?? 'dev' }, { capabilities: { tools: { listChanged: true }, resources: { subscribe: true } }, instructions: deps.dev ? `${DEV_INSTRUCTIONS} ${INSTRUCTIONS.split('. ').pop()}` : INSTRUCTIONS });
  const { scope, dev } = deps;
  const client = () => {
    const info = server.getClientVersion();
    return info ? `${info.name} ${info.version}` : null;
  };

  // The tools as this client last listed them: a change is announced only when they differ.
  let listed: string | null = null;
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const tools = dev ? dev.list() : await deps.tools.list(scope);
    listed = JSON.stringify(tools);
    return { tools };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const args = request.params.arguments ?? {};
    const result = dev ? await dev.call(request.params.name, args) : await deps.tools.call(request.params.name, args, { scope, client: client() });
    if (!result) throw new McpError(ErrorCode.InvalidParams, `no tool ${request.params.name}; tools/list names the tools`);
    return result;
  });

  let settle: NodeJS.Timeout | null = null;
  const stopWatchingTools = deps.catalog.subscribe(() => {
    // The dev tools are fixed: saved actions do not change them.
    if (listed === null || settle || dev) return;
    settle = setTimeout(() => {
      settle = null;
      void deps.tools
        .list(scope)
        .then((tools) => {
          const now = JSON.stringify(tools);
          if (listed === null || now === listed) return;
          listed = now;
          return server.sendToolListChanged();
        })
        .catch((err: Error) => console.error(`MCP: announcing a change of the tools: ${err.message}`));
    }, SETTLE_MS);
  });

  const subscriptions = new Map<string, () => void>();
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [...(dev?.resources() ?? []), ...sourceResources(deps.ctx)] }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [EVENT_TEMPLATE] }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => dev?.read(request.params.uri) ?? readEvents(deps.ctx, request.params.uri));
  server.setRequestHandler(SubscribeRequestSchema, (request) => {
    const { uri } = request.params;
    if (!subscriptions.has(uri))
      subscriptions.set(
        uri,
        watchEvents(deps.ctx, uri, () => void server.sendResourceUpdated({ uri }).catch(() => undefined)),
      );
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscriptions.get(request.params.uri)?.();
    subscriptions.delete(request.params.uri);
    return {};
  });

  server.onclose = () => {
    stopWatchingTools();
    if (settle) clearTimeout(settle);
    for (const stop of subscriptions.values()) stop();
    subscriptions.clear();
  };
  return server;
}
