import { useEffect, useState } from 'react';
import type { McpSettings } from '../../../../runtime/contract/mcp-api';
import { ErrorText } from '../../ui/ErrorText';
import { useSave } from './McpApps';
import { McpClients } from './McpClients';
import { type Change, useDevSnippets } from './mcp-data';

/** An absolute folder path, POSIX or Windows. */
const isAbsolute = (p: string) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p);

/**
 * The developer toolset (docs/mcp.md "Developing components"): off unless switched on here, when it
 * shows how a coding agent connects to it (`spout mcp --dev --root FOLDER`) for the folder it may
 * read and write. Sessions ask for it themselves; the switch only shows their configuration. The
 * switch and the folder are kept with the MCP settings (the folder once it is an absolute path).
 */
export function McpDevToolset({ settings, change }: { settings: McpSettings; change: Change }) {
  // Shown at once, saved after (and put back when the save fails).
  const [on, setOn] = useState(settings.dev_toolset);
  useEffect(() => setOn(settings.dev_toolset), [settings.dev_toolset]);
  const [folder, setFolder] = useState(settings.dev_root);
  useEffect(() => setFolder(settings.dev_root), [settings.dev_root]);
  const root = folder.trim();
  const { snippets, error } = useDevSnippets(on, isAbsolute(root) ? root : '');
  const save = useSave(change);
  const switchTo = async (next: boolean) => {
    setOn(next);
    if (!(await save({ dev_toolset: next }, next ? 'Developer toolset shown' : 'Developer toolset hidden'))) setOn(settings.dev_toolset);
  };

  return (
    <>
      <section className="card" aria-labelledby="mcp-dev-h">
        <h2 id="mcp-dev-h">Developer toolset</h2>
        <p>
          Coding agents (Claude Code, Cursor, VS Code) develop components with Spout: read the component guide, search the registry, write a source, deploy it, send it requests, read its runs, fix it, replay. They read and write files only in the folder you give, never in Spout&apos;s data dir; what
          they deploy runs in the same sandbox as everything else.
        </p>
        <label className="check">
          <input type="checkbox" role="switch" checked={on} onChange={(e) => switchTo(e.target.checked)} aria-describedby="mcp-dev-note" />
          Let coding agents develop components
        </label>
        <p id="mcp-dev-note" className="muted small-note">
          Off unless asked: only sessions started with <code>spout mcp --dev</code> (or <code>/mcp?toolset=dev</code>) get these tools.
        </p>
        {on && (
          <p className="row wrap">
            <label htmlFor="mcp-dev-root">Folder agents may read and write</label>
            <input
              id="mcp-dev-root"
              className="grow"
              value={folder}
              onChange={(e) => setFolder(e.target.value)}
              onBlur={() => (root === '' || isAbsolute(root)) && root !== settings.dev_root && save({ dev_root: root }, root ? `Agents' folder: ${root}` : "Agents' folder cleared")}
              placeholder="/home/me/my-components"
              spellCheck={false}
            />
          </p>
        )}
        {on && root !== '' && !isAbsolute(root) && <p className="muted small-note">Give the folder&apos;s absolute path.</p>}
        <ErrorText text={error && `Could not read the configuration: ${error}`} />
      </section>
      {snippets && <McpClients snippets={snippets} id="mcp-dev" title="Connect a coding agent" tag="dev" />}
    </>
  );
}
