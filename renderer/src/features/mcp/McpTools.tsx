import { useState } from 'react';
import type { McpAccountBinding, McpSettings, McpToolView } from '../../../../runtime/contract/mcp-api';
import type { NetworkMode } from '../../../../runtime/contract/network-api';
import { messageOf } from '../../api/client';
import { useApp } from '../../app/store';
import { CopyButton } from '../../ui/CopyButton';
import { NETWORK_MODES } from '../network/network-data';
import type { Change } from './mcp-data';

/** How many tools make the list worth a filter field. */
const FILTER_FROM = 8;

/** How one app prop of a tool gets its account, in words. */
function Binding({ binding }: { binding: McpAccountBinding }) {
  const account = useApp((s) => s.accounts.find((a) => a.id === binding.account_id));
  const what = (
    <>
      App prop <code>{binding.prop}</code> ({binding.app}):{' '}
    </>
  );
  if (binding.status === 'bound')
    return (
      <li>
        {what}
        {account ? account.name : 'account'} <code>{binding.account_id}</code>
      </li>
    );
  return (
    <li className={binding.status === 'choose' ? 'warn-text' : undefined}>
      {what}
      {binding.status === 'choose' ? 'calls are refused until an account is chosen' : 'no account: runs with an empty $auth'}
      {binding.problem && <span className="muted"> — {binding.problem}</span>}
    </li>
  );
}

/** One candidate tool: exposed or hidden (saved actions), its network mode, accounts and input schema (`tool` shows a change being saved). */
function ToolItem({ tool, onExpose, onMode }: { tool: McpToolView; onExpose(exposed: boolean): void; onMode(mode: NetworkMode): void }) {
  const id = `mcp-tool-${tool.name}`;
  return (
    <li className="tool-item" data-testid={id}>
      <div className="row wrap">
        {tool.origin === 'saved' ? (
          <label className="check">
            <input type="checkbox" role="switch" checked={tool.exposed} onChange={(e) => onExpose(e.target.checked)} aria-describedby={`${id}-desc`} />
            Expose<span className="sr-only"> {tool.name}</span>
          </label>
        ) : (
          <span className="badge" title="Registry actions are tools while their app is chosen below">
            app {tool.app}
          </span>
        )}
        <code className="tool-name">{tool.name}</code>
        {!tool.exposed && <span className="badge">hidden</span>}
        <span className="muted small-note">{tool.origin === 'saved' ? 'saved action' : 'registry action'}</span>
        <span className="grow" />
        <label htmlFor={`${id}-net`} className="small-note">
          Network<span className="sr-only"> mode of {tool.name}</span>
        </label>
        <select id={`${id}-net`} value={tool.network_mode} onChange={(e) => onMode(e.target.value as NetworkMode)}>
          {NETWORK_MODES.filter((m) => m.mode !== 'discover' /* MCP tool calls have no run view to list discoveries in */).map((m) => (
            <option key={m.mode} value={m.mode}>
              {m.label}
            </option>
          ))}
        </select>
      </div>
      <p id={`${id}-desc`} className="prop-desc">
        {tool.description || <span className="muted">No description: agents see only the name.</span>}
      </p>
      {tool.accounts.length > 0 && (
        <ul className="plain bindings" aria-label={`Accounts of ${tool.name}`}>
          {tool.accounts.map((b) => (
            <Binding key={b.prop} binding={b} />
          ))}
        </ul>
      )}
      <details className="schema">
        <summary>
          Input schema<span className="sr-only"> of {tool.name}</span>
        </summary>
        <pre className="json-box" tabIndex={0}>
          {JSON.stringify(tool.input_schema, null, 2)}
        </pre>
        <CopyButton text={JSON.stringify(tool.input_schema, null, 2)} label="Copy schema" />
      </details>
    </li>
  );
}

/**
 * The tools as agents see them (`GET /v1/mcp/tools`): a switch per saved action (hidden ones are
 * kept in `hidden_actions`), each tool's network mode, how its app props get accounts, and its
 * input schema.
 */
export function McpTools({ tools, change }: { tools: McpToolView[] | null; change: Change }) {
  const toast = useApp((s) => s.toast);
  // The change being saved, shown at once; the tools read again after it show what took effect.
  const [pending, setPending] = useState<Record<string, McpToolView>>({});
  const [filter, setFilter] = useState('');

  const save = async (shown: McpToolView, next: Parameters<Change>[0], done: string) => {
    // Never dropped: a change made while another is saved goes after it (useMcp's queue), computed
    // from the settings as saved by then. (Controls stay enabled, so keyboard focus is not lost.)
    setPending((p) => ({ ...p, [shown.name]: shown }));
    try {
      await change(next);
      toast(done);
    } catch (err) {
      toast(messageOf(err), 'error');
    } finally {
      // A later change of the same tool stays shown until its own save is answered.
      setPending((p) => {
        if (p[shown.name] !== shown) return p;
        const { [shown.name]: _mine, ...rest } = p;
        return rest;
      });
    }
  };
  const expose = (tool: McpToolView, exposed: boolean) => {
    // A saved action is hidden by its key (or its id when it has none); both are cleared to show it.
    const hidden = (saved: McpSettings) => {
      const others = saved.hidden_actions.filter((h) => h !== tool.ref && h !== tool.component_id);
      return { hidden_actions: exposed ? others : [...others, tool.ref] };
    };
    void save({ ...tool, exposed }, hidden, exposed ? `${tool.name}: exposed to MCP clients` : `${tool.name}: hidden from MCP clients`);
  };
  const setMode = (tool: McpToolView, mode: NetworkMode) => {
    // Live is the default: it is not kept.
    const modes = (saved: McpSettings) => {
      const { [tool.ref]: _old, ...rest } = saved.network_modes;
      return { network_modes: mode === 'live' ? rest : { ...rest, [tool.ref]: mode } };
    };
    const label = NETWORK_MODES.find((m) => m.mode === mode)?.label ?? mode;
    void save({ ...tool, network_mode: mode }, modes, `${tool.name}: network mode ${label}`);
  };

  const exposed = tools?.filter((t) => t.exposed).length ?? 0;
  const text = filter.trim().toLowerCase();
  const shown = tools?.filter((t) => !text || [t.name, t.description, t.app ?? ''].some((f) => f.toLowerCase().includes(text))) ?? [];
  return (
    <section className="card" aria-labelledby="mcp-tools-h">
      <div className="row">
        <h2 id="mcp-tools-h" className="grow">
          Tools
        </h2>
        {tools && (
          <span className="muted small-note" data-testid="mcp-tools-count">
            {exposed} of {tools.length} exposed
          </span>
        )}
      </div>
      <p className="muted">
        Every saved action is a tool unless hidden here; registry actions of the apps chosen below are tools too. Calls run in the component host like test runs, bound to local accounts, and show in Activity as “via MCP”. In Replay, calls are answered from the action&apos;s cassette (
        <code>PUT /v1/components/&#123;id&#125;/cassette</code>).
      </p>
      {!tools ? (
        <p className="empty">Loading…</p>
      ) : tools.length === 0 ? (
        <p className="empty">
          No actions yet: save one (New action, or <code>spout publish FILE</code>) or choose a registry app below.
        </p>
      ) : (
        <>
          {tools.length > FILTER_FROM && (
            <div className="toolbar">
              <input type="search" aria-label="Filter tools" placeholder="Filter by name, description or app" value={filter} onChange={(e) => setFilter(e.target.value)} />
              {text && <span className="muted small-note">{shown.length} shown</span>}
            </div>
          )}
          <ul className="plain tool-list" aria-label="MCP tools">
            {shown.map((t) => (
              <ToolItem key={t.name} tool={pending[t.name] ?? t} onExpose={(on) => expose(t, on)} onMode={(mode) => setMode(t, mode)} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
