import fs from 'node:fs';
import path from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpSnippets } from '../../contract/mcp-api';
import type { ApiClient } from '../../remote/api-client';
import { parse } from '../support/args';
import { McpRelay } from '../support/mcp-relay';
import { bold, dim, out, printJson } from '../support/output';
import { resolveTarget } from '../support/target';
import { UsageError } from '../support/usage';
import { connect, NETWORK_MODES } from './common';

export const HELP = `Usage: spout mcp [--app APP]… [--account [APP=]apn_…]… [--network MODE]
       spout mcp --dev [--root DIR]…
       spout mcp --config [--dev [--root DIR]…]

Serves Spout's MCP server on stdin/stdout, for MCP clients that start a command (Claude Desktop,
Cursor, VS Code…). Every saved action is a tool, with the registry actions of the apps chosen in
the MCP settings; sources' latest events are resources. It talks to the running service (its /mcp
endpoint, with the API key), so the service must be running ("spout serve" or the desktop app).
Log lines go to stderr: stdout carries the protocol only.

Options:
  --app APP               expose the registry actions of this app (repeatable); replaces the
                          apps of the MCP settings for this session
  --account [APP=]apn_…   bind the app props of APP to this connected account (repeatable)
  --network MODE          serve every tool call's HTTP calls this way: live, record, replay,
                          replay-or-live (default: each action's mode in the MCP settings)
  --dev                   the developer toolset instead of the actions: tools to write, lint,
                          deploy, run, read and replay components (docs/mcp.md)
  --root DIR              with --dev: a folder the agent may read and write component files in
                          (repeatable; default the current directory; never the data dir)
  --config                print the configuration to paste into Claude Desktop, Cursor and
                          VS Code for this service (with --dev: the developer toolset's, Claude
                          Code's command too), then exit
`;

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, { app: { type: 'string', multiple: true }, account: { type: 'string', multiple: true }, network: { type: 'string' }, config: { type: 'boolean' }, dev: { type: 'boolean' }, root: { type: 'string', multiple: true } }, HELP);
  if (!args) return;
  args.atMost(0);
  const dev = args.flag('dev');
  if (!dev && args.strings('root').length > 0) throw new UsageError('--root is a folder for the developer toolset; add --dev');
  if (dev && (args.strings('app').length > 0 || args.strings('account').length > 0 || args.string('network') !== undefined)) throw new UsageError('--app, --account and --network choose the action tools; the developer toolset (--dev) takes accounts and network modes per call');
  // Absolute and real: the service resolves them, and it may run in another folder.
  const roots = dev ? (args.strings('root').length > 0 ? args.strings('root') : ['.']).map((r) => path.resolve(r)) : [];
  for (const root of roots) if (!fs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--root: ${root} is not a folder`);
  if (args.flag('config')) return printConfig(connect(args), args.globals.json, dev ? roots : null);
  const network = args.string('network');
  if (network !== undefined && !NETWORK_MODES.includes(network)) throw new UsageError(`--network: "${network}" is not one of ${NETWORK_MODES.join(', ')}`);
  // Found again after a restart: a local service started with --port 0 comes back on another port.
  const locate = () => {
    const target = resolveTarget(args.globals);
    const url = new URL(`${target.url}/mcp`);
    for (const app of args.strings('app')) url.searchParams.append('app', app);
    for (const account of args.strings('account')) url.searchParams.append('account', account);
    if (network) url.searchParams.set('network', network);
    if (dev) url.searchParams.set('toolset', 'dev');
    for (const root of roots) url.searchParams.append('root', root);
    return { url, apiKey: target.apiKey };
  };
  const closed = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  await new McpRelay(locate, new StdioServerTransport(), (line) => process.stderr.write(`${line}\n`)).run(closed);
}

/** The snippets of `GET /v1/mcp/snippets`, one block per client. */
async function printConfig(client: ApiClient, json: boolean, devRoots: string[] | null): Promise<void> {
  const query = devRoots ? `?${new URLSearchParams([['toolset', 'dev'], ...devRoots.map((r): [string, string] => ['root', r])]).toString()}` : '';
  const { data } = await client.get<{ data: McpSnippets }>(`/v1/mcp/snippets${query}`);
  if (json) return printJson(data);
  for (const snippet of data.clients) {
    out(`${bold(`${snippet.name} (${snippet.transport})`)} ${dim(snippet.file)}`);
    out(typeof snippet.config.command === 'string' && snippet.client === 'claude-code' ? snippet.config.command : JSON.stringify(snippet.config, null, 2));
    out('');
  }
  out(`${bold('HTTP endpoint:')} ${data.http.url} ${dim('(header Authorization: Bearer <API key>)')}`);
}
