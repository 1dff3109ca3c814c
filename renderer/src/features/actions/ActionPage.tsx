import type { SavedActionView } from '../../../../runtime/contract/action-api';
import { useRoute } from '../../app/router';
import { when } from '../../ui/format';
import { Link } from '../../ui/Link';
import { ActionEditor } from './ActionEditor';
import { actionDraft, actionPath, useMcpTool, useSavedAction } from './action-data';

/** The action's saved versions, newest first, the one shown marked; each opens at its id. */
function Versions({ action, shownId }: { action: SavedActionView; shownId: string }) {
  return (
    <details className="card versions" open={action.versions.length > 1}>
      <summary>
        {action.versions.length} saved version{action.versions.length === 1 ? '' : 's'}
      </summary>
      <ol className="plain" aria-label="Saved versions" data-testid="versions">
        {action.versions.map((v, i) => (
          <li key={v.id} className="row wrap">
            <Link to={i === 0 ? `/actions/${encodeURIComponent(action.ref)}` : `/actions/${encodeURIComponent(v.id)}`} aria-current={v.id === shownId ? 'page' : undefined}>
              v{v.version} saved {when(v.created_at)}
            </Link>
            <code className="muted">{v.id}</code>
            {i === 0 && <span className="badge active">newest</span>}
            {v.registry && <span className="badge">registry</span>}
            {v.id === shownId && <span className="badge">shown</span>}
          </li>
        ))}
      </ol>
    </details>
  );
}

/** Where the action goes beyond test runs: a workflow step, and its MCP tool (exposed unless hidden). */
function Uses({ action, shownId }: { action: SavedActionView; shownId: string }) {
  const { tool, loaded, setExposed } = useMcpTool(action);
  return (
    <div className="row wrap action-uses">
      <Link to={`/workflows/new?action=${encodeURIComponent(shownId)}`} className="button small">
        Use as a workflow step
      </Link>
      {tool ? (
        <label className="check">
          <input type="checkbox" role="switch" checked={tool.exposed} onChange={(e) => void setExposed(e.target.checked)} />
          Expose as an MCP tool <code>{tool.name}</code>
        </label>
      ) : (
        <span className="muted small-note">{loaded ? 'Not an MCP tool (registry actions are tools when their app is chosen in Settings → MCP).' : 'Reading the MCP tools…'}</span>
      )}
      <Link to="/settings/mcp">MCP tools settings</Link>
    </div>
  );
}

/** A saved action (`/actions/{key}`, or a version at `/actions/{sc_…}`): its versions, uses, editor, props and test runs. */
export function ActionPage({ actionRef }: { actionRef: string }) {
  const navigate = useRoute((s) => s.navigate);
  const { action, shown, error, reload } = useSavedAction(actionRef);
  if (!action || !shown) {
    return error ? (
      <div className="welcome">
        <h1 tabIndex={-1}>Action not found</h1>
        <p role="alert" className="error">
          {error}
        </p>
      </div>
    ) : (
      <p className="empty">Loading {actionRef}…</p>
    );
  }
  const c = shown.component;
  const older = c.id !== action.id;
  return (
    <div className="source-create action-page">
      <header className="page-head">
        <div>
          <h1 tabIndex={-1}>{c.name}</h1>
          <p className="muted">
            <code>{c.key ?? c.id}</code> v{c.version} · saved {when(c.created_at)}
            {older && <> · an older version (the newest is v{action.version})</>}
          </p>
          {c.description && <p>{c.description}</p>}
        </div>
      </header>
      <Versions action={action} shownId={c.id} />
      <Uses action={action} shownId={c.id} />
      <ActionEditor
        key={c.id}
        origin={shown.origin}
        component={c}
        onSaved={(saved) => {
          if (saved.id === c.id) return void reload();
          // A new version: this one's draft goes back to its saved code, and the page shows the new one.
          void actionDraft(shown.origin, c).actions.discard();
          const to = actionPath(saved);
          if (to === `/actions/${encodeURIComponent(actionRef)}`) void reload();
          else navigate(to);
        }}
      />
    </div>
  );
}
