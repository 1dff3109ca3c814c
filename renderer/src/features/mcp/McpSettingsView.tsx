import { ErrorText } from '../../ui/ErrorText';
import { McpAccounts, McpRegistryApps } from './McpApps';
import { McpClients } from './McpClients';
import { McpDevToolset } from './McpDevToolset';
import { McpTools } from './McpTools';
import { useMcp } from './mcp-data';

/**
 * Settings → MCP (docs/mcp.md): which actions agents may call as tools, the registry apps and the
 * account per app they use, how to connect Claude Desktop, Cursor, VS Code or a script, and the
 * developer toolset for coding agents.
 */
export function McpSettingsView() {
  const { settings, tools, snippets, error, change } = useMcp();
  return (
    <>
      <section className="card" aria-labelledby="mcp-h">
        <h2 id="mcp-h">MCP server</h2>
        <p>
          AI agents on this machine call your actions as MCP tools, against local accounts and recorded APIs, and read your sources&apos; latest events as resources. Every call is a recorded run. An agent can list and call the tools exposed here and nothing else: it never sees accounts, the API key
          or the rest of the service.
        </p>
        <p className="muted small-note">
          Set-up, how props become input schemas, and security: <code>docs/mcp.md</code>. From a terminal: <code>spout mcp --config</code>.
        </p>
        <ErrorText text={error && `Could not read the MCP settings: ${error}`} />
      </section>
      {settings ? (
        <>
          <McpTools tools={tools} change={change} />
          <McpRegistryApps tools={tools} settings={settings} change={change} />
          <McpAccounts tools={tools} settings={settings} change={change} />
        </>
      ) : (
        !error && <p className="empty">Loading…</p>
      )}
      {snippets && <McpClients snippets={snippets} />}
      {settings && <McpDevToolset settings={settings} change={change} />}
    </>
  );
}
