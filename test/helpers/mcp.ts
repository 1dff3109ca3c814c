import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type SpoutProcess, tempDir } from './service';

const cli = path.resolve('dist', 'cli.js');

/** An MCP client (the official SDK's) connected to a Spout, and what its stdio server logged. */
export interface McpConnection {
  client: Client;
  /** stderr of `spout mcp` (empty over HTTP). */
  stderr: () => string;
}

/**
 * Connects the SDK's client over HTTP (`/mcp` with the key, `query` as the session's choices) or
 * over stdio (`spout mcp --data-dir DIR …args`, as the snippets configure clients; the Spout must
 * keep its key in the data dir).
 */
export async function connectMcp(spout: SpoutProcess, transport: 'http' | 'stdio', choices: { query?: string; args?: string[] } = {}): Promise<McpConnection> {
  const client = new Client({ name: 'spout-test', version: '1.0.0' });
  if (transport === 'http') {
    const url = new URL(`${spout.url}/mcp${choices.query ? `?${choices.query}` : ''}`);
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${spout.apiKey}` } } }));
    return { client, stderr: () => '' };
  }
  const stdio = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', '--data-dir', spout.dataDir, ...(choices.args ?? [])],
    // The user's own profiles must not point the command elsewhere.
    env: { ...getDefaultEnvironment(), XDG_CONFIG_HOME: tempDir('spout-mcp-config-') },
    stderr: 'pipe',
  });
  let stderr = '';
  stdio.stderr?.on('data', (c) => (stderr += c));
  await client.connect(stdio);
  return { client, stderr: () => stderr };
}

/** Saves component code and answers its id. */
export async function saveComponent(spout: SpoutProcess, code: string, filename: string): Promise<string> {
  const res = await spout.api('POST', '/v1/components', { component_code: code, component_filename: filename });
  if (res.status !== 200) throw new Error(`saving ${filename}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json.data.id as string;
}

/** The text blocks of a tool result, joined. */
export function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');
}
