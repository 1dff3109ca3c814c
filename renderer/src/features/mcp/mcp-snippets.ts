// Text to paste, made from `GET /v1/mcp/snippets`: the stdio command as a shell line, each client's
// configuration as JSON, and a Node script that reaches the tools through the official SDK.
import type { McpSnippets, McpStdioCommand } from '../../../../runtime/contract/mcp-api';

/** A word for a POSIX shell: as it is when it holds nothing the shell reads, else single-quoted. */
const shellWord = (word: string) => (/^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`);

/** The stdio command as one shell line (`SPOUT_API_KEY=… node …/cli.js mcp --data-dir …`). */
export function commandLine(stdio: McpStdioCommand): string {
  const env = Object.entries(stdio.env ?? {}).map(([name, value]) => `${name}=${shellWord(value)}`);
  return [...env, ...[stdio.command, ...stdio.args].map(shellWord)].join(' ');
}

/** A client's configuration as it goes in its file. */
export const configText = (config: Record<string, unknown>) => JSON.stringify(config, null, 2);

/** What a script does once connected: list the tools, and how to call one. */
const SCRIPT_BODY = `const client = new Client({ name: "my-script", version: "1.0.0" });
await client.connect(transport);
const { tools } = await client.listTools();
for (const tool of tools) console.log(tool.name, "-", tool.description ?? "");
// const result = await client.callTool({ name: tools[0].name, arguments: {} });
await client.close();
`;

/**
 * A Node script (ESM, `@modelcontextprotocol/sdk`) that connects to this service, lists its tools
 * and shows how to call one: over stdio (`spout mcp`) or HTTP (the key from `SPOUT_API_KEY`).
 */
export function scriptText(snippets: McpSnippets, transport: 'stdio' | 'http'): string {
  const head = '// spout-tools.mjs: run with node (npm install @modelcontextprotocol/sdk first)\nimport { Client } from "@modelcontextprotocol/sdk/client/index.js";\n';
  if (transport === 'stdio') {
    const { command, args, env } = snippets.stdio;
    // The key is never in a snippet: a service whose key is not in its data dir gets it from the environment.
    const envLine = env ? '\n  env: { SPOUT_API_KEY: process.env.SPOUT_API_KEY ?? "" },' : '';
    return `${head}import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const transport = new StdioClientTransport({
  command: ${JSON.stringify(command)},
  args: [${args.map((arg) => JSON.stringify(arg)).join(', ')}],${envLine}
});
${SCRIPT_BODY}`;
  }
  return `${head}import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

// The API key (DATA_DIR/api-key) from the environment: SPOUT_API_KEY=… node spout-tools.mjs
const transport = new StreamableHTTPClientTransport(new URL(${JSON.stringify(snippets.http.url)}), {
  requestInit: { headers: { Authorization: \`Bearer \${process.env.SPOUT_API_KEY}\` } },
});
${SCRIPT_BODY}`;
}
