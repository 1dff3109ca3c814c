import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { parse } from '../support/args';
import { McpRelay } from '../support/mcp-relay';
import { resolveTarget } from '../support/target';
import { UsageError } from '../support/usage';
import type { McpSnippets } from '../../contract/mcp-api';
import type { ApiClient } from '../../remote/api-client';
import { bold, dim, out, printJson } from '../support/output';
import { connect, NETWORK_MODES } from './common';

export const HELP = `Usage: spout mcp [--app APP]… [--account [APP=]apn_…]… [--network MODE]
       spout mcp --config

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
  --config                print the configuration to paste into Claude Desktop, Cursor and
                          VS Code for this service, then exit
`;

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, { app: { type: 'string', multiple: true }, account: { type: 'string', multiple: true }, network: { type: 'string' }, config: { type: 'boolean' } }, HELP);
  if (!args) return;
  args.atMost(0);
  if (args.flag('config')) return printConfig(connect(args), args.globals.json);
  const network = args.string('network');
  if (network !== undefined && !NETWORK_MODES.includes(network)) throw new UsageError(`--network: "${network}" is not one of ${NETWORK_MODES.join(', ')}`);
  // Found again after a restart: a local service started with --port 0 comes back on another port.
  const locate = () => {
    const target = resolveTarget(args.globals);
    const url = new URL(`${target.url}/mcp`);
    for (const app of args.strings('app')) url.searchParams.append('app', app);
    for (const account of args.strings('account')) url.searchParams.append('account', account);
    if (network) url.searchParams.set('network', network);
    return { url, apiKey: target.apiKey };
  };
  const closed = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  await new McpRelay(locate, new StdioServerTransport(), (line) => process.stderr.write(`${line}\n`)).run(closed);
}

/** The snippets of `GET /v1/mcp/snippets`, one block per client. */
async function printConfig(client: ApiClient, json: boolean): Promise<void> {
  const { data } = await client.get<{ data: McpSnippets }>('/v1/mcp/snippets');
  if (json) return printJson(data);
  for (const snippet of data.clients) {
    out(`${bold(`${snippet.name} (${snippet.transport})`)} ${dim(snippet.file)}`);
    out(JSON.stringify(snippet.config, null, 2));
    out('');
  }
  out(`${bold('HTTP endpoint:')} ${data.http.url} ${dim('(header Authorization: Bearer <API key>)')}`);
}
