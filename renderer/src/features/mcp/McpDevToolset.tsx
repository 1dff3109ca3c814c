import { useState } from 'react';
import { ErrorText } from '../../ui/ErrorText';
import { McpClients } from './McpClients';
import { useDevSnippets } from './mcp-data';

/** An absolute folder path, POSIX or Windows. */
const isAbsolute = (p: string) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p);

/**
 * The developer toolset (docs/mcp.md "Developing components"): off unless switched on here, when it
 * shows how a coding agent connects to it (`spout mcp --dev --root FOLDER`) for the folder it may
 * read and write. Sessions ask for it themselves; the switch only shows their configuration.
 */
export function McpDevToolset() {
  const [on, setOn] = useState(false);
  const [folder, setFolder] = useState('');
  const root = folder.trim();
  const { snippets, error } = useDevSnippets(on, isAbsolute(root) ? root : '');

  return (
    <>
      <section className="card" aria-labelledby="mcp-dev-h">
        <h2 id="mcp-dev-h">Developer toolset</h2>
        <p>
          Coding agents (Claude Code, Cursor, VS Code) develop components with Spout: read the component guide, search the registry, write a source, deploy it, send it requests, read its runs, fix it, replay. They read and write files only in the folder you give, never in Spout&apos;s data dir; what
          they deploy runs in the same sandbox as everything else.
        </p>
        <label className="check">
          <input type="checkbox" role="switch" checked={on} onChange={(e) => setOn(e.target.checked)} aria-describedby="mcp-dev-note" />
          Let coding agents develop components
        </label>
        <p id="mcp-dev-note" className="muted small-note">
          Off unless asked: only sessions started with <code>spout mcp --dev</code> (or <code>/mcp?toolset=dev</code>) get these tools.
        </p>
        {on && (
          <p className="row wrap">
            <label htmlFor="mcp-dev-root">Folder agents may read and write</label>
            <input id="mcp-dev-root" className="grow" value={folder} onChange={(e) => setFolder(e.target.value)} placeholder="/home/me/my-components" spellCheck={false} />
          </p>
        )}
        {on && root !== '' && !isAbsolute(root) && <p className="muted small-note">Give the folder&apos;s absolute path.</p>}
        <ErrorText text={error && `Could not read the configuration: ${error}`} />
      </section>
      {snippets && <McpClients snippets={snippets} id="mcp-dev" title="Connect a coding agent" tag="dev" />}
    </>
  );
}
