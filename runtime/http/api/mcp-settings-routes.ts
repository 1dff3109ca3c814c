// What a Settings → MCP screen needs (docs/mcp.md): the MCP settings (which actions are tools, the
// account per app, network modes), every candidate tool as the agent would see it, and the
// configuration snippets of common MCP clients.
import path from 'node:path';
import { Router } from 'express';
import { z } from 'zod';
import type { McpClientSnippet, McpSettings, McpSnippets, McpToolView } from '../../contract/mcp-api';
import { toolInput } from '../../engine/tools/tool-schema';
import { pageParams, paginate } from '../../lib/pagination';
import { HttpError } from '../edge/error-statuses';
import type { ApiContext } from './api-context';
import { parseParams } from './params';

const appSlug = z.string().regex(/^[a-z0-9_-]+$/, 'must be an app name slug such as "http" or "google_sheets"');
const networkMode = z.enum(['live', 'record', 'replay', 'replay-or-live']);

/** A change of the MCP settings: each field given replaces that setting; the others stay. */
export const mcpSettingsSchema = z.object({
  hidden_actions: z.array(z.string().min(1)).max(1000).optional(),
  registry_apps: z.array(appSlug).max(500).optional(),
  accounts: z.record(appSlug, z.string().regex(/^apn_/, 'must be the id of a connected account (apn_…)')).optional(),
  network_modes: z.record(z.string().min(1), networkMode).optional(),
  dev_toolset: z.boolean().optional(),
  dev_root: z
    .string()
    .max(4096)
    .refine((p) => p === '' || path.isAbsolute(p), 'must be an absolute folder path, or "" for none')
    .optional(),
});

/** `GET /v1/mcp/snippets?toolset=dev&root=DIR…`: the developer toolset's snippets, for these folders. */
export const snippetsSchema = z.object({
  toolset: z.enum(['actions', 'dev']).default('actions'),
  root: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => [v].flat())
    .pipe(z.array(z.string().refine((p) => path.isAbsolute(p), 'must be an absolute folder path')))
    .optional(),
});

/** The Claude Code command that adds a stdio server. */
function claudeCodeCommand(name: string, stdio: McpSnippets['stdio']): string {
  const quote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
  const env = Object.entries(stdio.env ?? {})
    .map(([k, v]) => `-e ${quote(`${k}=${v}`)} `)
    .join('');
  return `claude mcp add ${env}${name} -- ${[stdio.command, ...stdio.args].map(quote).join(' ')}`;
}

/** Ready-to-paste configurations: stdio for every client, and HTTP where the client can send the key from a prompt or the environment. */
function clientSnippets(stdio: McpSnippets['stdio'], url: string, serverName: string): McpClientSnippet[] {
  const stdioEntry = { command: stdio.command, args: stdio.args, ...(stdio.env ? { env: stdio.env } : {}) };
  return [
    { client: 'claude-desktop', name: 'Claude Desktop', transport: 'stdio', file: 'claude_desktop_config.json (Settings → Developer → Edit Config)', config: { mcpServers: { [serverName]: stdioEntry } } },
    { client: 'cursor', name: 'Cursor', transport: 'stdio', file: '~/.cursor/mcp.json (or .cursor/mcp.json in a project)', config: { mcpServers: { [serverName]: stdioEntry } } },
    { client: 'cursor', name: 'Cursor', transport: 'http', file: '~/.cursor/mcp.json, with SPOUT_API_KEY in the environment Cursor starts from', config: { mcpServers: { [serverName]: { url, headers: { Authorization: 'Bearer ${env:SPOUT_API_KEY}' } } } } },
    { client: 'vscode', name: 'VS Code', transport: 'stdio', file: '.vscode/mcp.json (or the user configuration: MCP: Open User Configuration)', config: { servers: { [serverName]: { type: 'stdio', ...stdioEntry } } } },
    {
      client: 'vscode',
      name: 'VS Code',
      transport: 'http',
      file: '.vscode/mcp.json: VS Code asks for the key once and keeps it',
      config: {
        inputs: [{ type: 'promptString', id: 'spout-api-key', description: 'Spout API key (DATA_DIR/api-key)', password: true }],
        servers: { [serverName]: { type: 'http', url, headers: { Authorization: 'Bearer ${input:spout-api-key}' } } },
      },
    },
  ];
}

/** `GET/PUT /v1/mcp/settings`, `GET /v1/mcp/tools`, `GET /v1/mcp/snippets`. */
export function mcpSettingsRoutes(ctx: ApiContext): Router {
  const router = Router();

  router.get('/mcp/settings', (_req, res) => {
    res.json({ data: ctx.mcp.catalog.settings() });
  });

  router.put('/mcp/settings', async (req, res) => {
    const input = parseParams(req, mcpSettingsSchema);
    const errors = Object.entries(input.accounts ?? {}).flatMap(([app, id]) => {
      const account = ctx.metadata.data.accounts.find((a) => a.id === id);
      if (!account) return [{ path: `accounts.${app}`, message: `no connected account ${id}; GET /v1/accounts lists them` }];
      return account.app === app ? [] : [{ path: `accounts.${app}`, message: `${id} is an account of app "${account.app}", not "${app}"` }];
    });
    if (errors.length > 0) throw new HttpError(400, errors.map((e) => `${e.path}: ${e.message}`).join('; '), errors);
    const next: McpSettings = { ...ctx.mcp.catalog.settings(), ...input };
    await ctx.mcp.settings.put(next);
    res.json({ data: next });
  });

  router.get('/mcp/tools', async (req, res) => {
    const page = parseParams(req, pageParams);
    const stores = (await ctx.dataStores.list()).map((s) => ({ id: s.id, name: s.name }));
    const views = (await ctx.mcp.catalog.entries()).map((e): McpToolView & { id: string } => ({
      id: e.name,
      name: e.name,
      origin: e.origin,
      component_id: e.component?.id ?? null,
      component_key: e.key,
      ref: e.ref,
      app: e.app,
      exposed: e.exposed,
      description: e.description ?? e.title,
      input_schema: toolInput(e.props, e.name, stores).schema,
      network_mode: e.network,
      accounts: ctx.mcp.catalog.accounts(e),
    }));
    res.json(paginate(views, page, ({ id: _id, ...view }) => view));
  });

  router.get('/mcp/snippets', (req, res) => {
    const { toolset, root } = parseParams(req, snippetsSchema);
    const dev = toolset === 'dev';
    const roots = root ?? [];
    const query = dev ? `?${new URLSearchParams([['toolset', 'dev'], ...roots.map((r): [string, string] => ['root', r])]).toString()}` : '';
    const url = `${ctx.settings().url}/mcp${query}`;
    const stdio = dev ? { ...ctx.mcp.stdio, args: [...ctx.mcp.stdio.args, '--dev', ...roots.flatMap((r) => ['--root', r])] } : ctx.mcp.stdio;
    const snippets: McpSnippets = { stdio, http: { url, headers: { Authorization: 'Bearer <API key: DATA_DIR/api-key>' } }, clients: clientSnippets(stdio, url, dev ? 'spout-dev' : 'spout') };
    // Claude Code adds a server with a command; the developer toolset is what it is most used for.
    if (dev) snippets.clients.push({ client: 'claude-code', name: 'Claude Code', transport: 'stdio', file: 'a shell, in the project folder', config: { command: claudeCodeCommand('spout-dev', stdio) } });
    res.json({ data: snippets });
  });

  return router;
}
