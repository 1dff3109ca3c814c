import type { McpClientSnippet, McpSnippets } from '../../../../runtime/contract/mcp-api';
import { CopyButton } from '../../ui/CopyButton';
import { CopyEntry } from '../../ui/CopyEntry';
import { Tabs } from '../../ui/Tabs';
import { commandLine, configText, scriptText } from './mcp-snippets';

/** One thing to paste: where it goes, the text, and a Copy button named after it. */
function Snippet({ title, where, text, copyLabel }: { title: string; where: string; text: string; copyLabel: string }) {
  return (
    <figure className="snippet">
      <figcaption className="row">
        <strong className="grow">{title}</strong>
        <CopyButton text={text} label={copyLabel} />
      </figcaption>
      <p className="muted small-note">{where}</p>
      {/* Focusable: a long snippet scrolls, and the keyboard must reach it. */}
      <pre className="snippet-text" tabIndex={0}>
        {text}
      </pre>
    </figure>
  );
}

const TRANSPORT = { stdio: 'stdio (spout mcp)', http: 'HTTP' } as const;

/** A client's snippets, stdio first; `named` makes a Copy button's name unique on the page. */
function ClientSnippets({ list, named }: { list: McpClientSnippet[]; named: (label: string) => string }) {
  return (
    <>
      {list.map((s) => (
        <Snippet
          key={`${s.client}-${s.transport}`}
          title={TRANSPORT[s.transport]}
          where={s.file}
          // Claude Code's is a command to run, not JSON to merge.
          text={typeof s.config.command === 'string' && s.client === 'claude-code' ? s.config.command : configText(s.config)}
          copyLabel={named(`Copy ${s.name} ${s.transport === 'http' ? 'HTTP' : 'stdio'} configuration`)}
        />
      ))}
    </>
  );
}

/**
 * How MCP clients reach this service (`GET /v1/mcp/snippets`): the stdio command and the HTTP
 * endpoint with its header, and ready-to-paste configurations for Claude Desktop, Cursor, VS Code
 * (Claude Code's command when the snippets have one) and a Node script. No snippet holds the API
 * key. `id` and `tag` (added to every Copy button's name) keep two of them on one page apart.
 */
export function McpClients({ snippets, id = 'mcp', title = 'Connect a client', tag }: { snippets: McpSnippets; id?: string; title?: string; tag?: string }) {
  const of = (client: McpClientSnippet['client']) => snippets.clients.filter((c) => c.client === client);
  const header = Object.entries(snippets.http.headers).map(([name, value]) => `${name}: ${value}`);
  const command = commandLine(snippets.stdio);
  const named = (label: string) => (tag ? `${label} (${tag})` : label);
  return (
    <section className="card" aria-labelledby={`${id}-clients-h`}>
      <h2 id={`${id}-clients-h`}>{title}</h2>
      <dl className="meta-grid">
        <CopyEntry term="stdio command" value={command} copyLabel={named('Copy command')} testId={`${id}-stdio-command`} />
        <CopyEntry term="HTTP endpoint" value={snippets.http.url} copyLabel={named('Copy URL')} testId={`${id}-http-url`} />
        <dt>with the header</dt>
        <dd>
          {header.map((h) => (
            <code key={h}>{h}</code>
          ))}
        </dd>
      </dl>
      <p className="muted small-note">
        The key is this service&apos;s API key (<code>DATA_DIR/api-key</code>, the same as for <code>/v1</code>); the snippets never hold it. Over stdio, <code>spout mcp</code> finds the service and its key through the data dir; it must be running.
      </p>
      <Tabs
        label={named('MCP clients')}
        items={[
          ...(of('claude-code').length > 0 ? [{ id: 'claude-code', label: 'Claude Code', panel: <ClientSnippets list={of('claude-code')} named={named} /> }] : []),
          { id: 'claude', label: 'Claude Desktop', panel: <ClientSnippets list={of('claude-desktop')} named={named} /> },
          { id: 'cursor', label: 'Cursor', panel: <ClientSnippets list={of('cursor')} named={named} /> },
          { id: 'vscode', label: 'VS Code', panel: <ClientSnippets list={of('vscode')} named={named} /> },
          {
            id: 'script',
            label: 'Script',
            panel: (
              <>
                <Snippet title={TRANSPORT.stdio} where="A Node script with the official SDK (@modelcontextprotocol/sdk): lists the tools." text={scriptText(snippets, 'stdio')} copyLabel={named('Copy stdio script')} />
                <Snippet title={TRANSPORT.http} where="The same over HTTP; the key comes from SPOUT_API_KEY." text={scriptText(snippets, 'http')} copyLabel={named('Copy HTTP script')} />
              </>
            ),
          },
        ]}
      />
    </section>
  );
}
