import { useId, useState } from 'react';
import type { ComponentUse, ComponentView } from '../../../../runtime/contract/component-api';
import { messageOf } from '../../api/client';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorText } from '../../ui/ErrorText';
import { dateTime } from '../../ui/format';
import { Link } from '../../ui/Link';
import { type GalleryItem, useGallery } from './gallery-data';

/**
 * The component gallery: the bundled and `--registry` components and the saved ones (one row per
 * component, its versions a click away), searched by name, app, description or key; each says what
 * it is, and choosing one hands it over.
 */
export function ComponentGallery({ type, onChoose, choosing }: { type: 'source' | 'action' | null; onChoose(item: GalleryItem): void; choosing: string | null }) {
  const [q, setQ] = useState('');
  const [kind, setKind] = useState<'source' | 'action' | null>(type);
  const { registry, saved, total, next, capped, pending, loading, error, more, remove } = useGallery(q, kind);
  const [open, setOpen] = useState<string | null>(null);
  const id = useId();
  const shown = [...registry, ...saved];
  const count =
    loading && shown.length === 0
      ? 'Loading…'
      : q.trim()
        ? `${shown.length} matching${capped ? ` (the first ${registry.length} of the registry's: a longer search finds the rest)` : ''}`
        : `${registry.length}${total !== null && total > registry.length ? ` of ${total}` : ''} in the registry, ${saved.length} saved${pending ? ` (${pending} files still being read)` : ''}`;
  return (
    <section className="gallery" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Start from a component</h2>
      <div className="toolbar">
        <label className="sr-only" htmlFor={`${id}-q`}>
          Search components
        </label>
        <input id={`${id}-q`} type="search" placeholder="Search by name, app, description or key" value={q} onChange={(e) => setQ(e.target.value)} />
        {type === null && (
          <>
            <label className="sr-only" htmlFor={`${id}-type`}>
              Kind
            </label>
            <select id={`${id}-type`} value={kind ?? ''} onChange={(e) => setKind((e.target.value || null) as 'source' | 'action' | null)}>
              <option value="">Sources and actions</option>
              <option value="source">Sources</option>
              <option value="action">Actions</option>
            </select>
          </>
        )}
        <span className="muted" role="status" data-testid="gallery-count">
          {count}
        </span>
      </div>
      <ErrorText text={error} />
      {!loading && shown.length === 0 ? (
        <p className="empty">{q.trim() ? 'No component matches.' : 'No components yet: give the service a registry folder with --registry, or save one from the editor.'}</p>
      ) : (
        <ul className="gallery-list" aria-label="Components">
          {shown.map((item) => (
            <li key={`${item.from}:${item.ref}`} className="gallery-item">
              <div className="gallery-row">
                <div className="gallery-text">
                  <strong>{item.name}</strong> <span className={item.type === 'action' ? 'badge' : 'badge active'}>{item.type}</span>
                  {item.from === 'saved' && <span className="badge">saved</span>}
                  <span className="muted">
                    {' '}
                    {item.app ? `${item.app} · ` : ''}
                    <code>{item.key ?? item.ref}</code> {item.version}
                  </span>
                  {item.from === 'saved' && (
                    <span className="muted" data-testid="gallery-versions-summary">
                      {' '}
                      · {item.versions.length === 1 ? '1 version' : `${item.versions.length} versions`}, latest saved {dateTime((item.versions[0]?.created_at ?? 0) * 1000)}
                    </span>
                  )}
                  {item.description && <p className="prop-desc">{item.description}</p>}
                </div>
                <div className="row">
                  {item.from === 'saved' && (
                    <button type="button" className="small" aria-expanded={open === item.ref} aria-controls={`${id}-v-${item.ref}`} onClick={() => setOpen(open === item.ref ? null : item.ref)}>
                      Versions ({item.versions.length})
                    </button>
                  )}
                  <button type="button" className="small" disabled={choosing !== null} onClick={() => onChoose(item)} aria-label={`Use ${item.name} (${item.key ?? item.ref})`}>
                    {choosing === item.ref ? 'Opening…' : 'Use'}
                  </button>
                </div>
              </div>
              {open === item.ref && <Versions id={`${id}-v-${item.ref}`} item={item} choosing={choosing} onChoose={onChoose} remove={remove} />}
            </li>
          ))}
        </ul>
      )}
      {next && total !== null && (
        <button type="button" className="small" disabled={loading} onClick={() => void more()}>
          {loading ? 'Loading…' : `Load ${Math.min(100, total - registry.length)} more (${total - registry.length} not shown)`}
        </button>
      )}
    </section>
  );
}

/** What deleting the MCP tool's version does to the tool: it moves to the version before (or goes). */
function toolNote(tool: ComponentUse | undefined): string {
  return tool ? `This version is the MCP tool ${tool.id}: the version saved before it becomes the tool (none left: the tool goes). ` : 'Nothing uses this version. ';
}

/** What a version's "Used by" cell names: each user linked to its screen. */
function UseLink({ use }: { use: ComponentUse }) {
  if (use.kind === 'mcp_tool')
    return (
      <Link to="/settings/mcp">
        MCP tool <code>{use.id}</code>
      </Link>
    );
  return (
    <Link to={`/${use.kind === 'source' ? 'sources' : 'workflows'}/${encodeURIComponent(use.id)}`}>
      {use.kind} {use.name}
    </Link>
  );
}

/**
 * A saved component's versions: version, code hash, when saved, and what uses each. A version
 * nothing uses can be deleted (after a confirmation), one at a time or all such at once.
 */
function Versions({ id, item, choosing, onChoose, remove }: { id: string; item: GalleryItem; choosing: string | null; onChoose(item: GalleryItem): void; remove(what: { ids: string[] } | { unusedOf: string }): Promise<void> }) {
  const [confirm, setConfirm] = useState<ComponentView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const unused = item.versions.filter((v) => (v.used_by ?? []).length === 0);
  // A source or workflow runs that very version; the MCP tool follows the newest one.
  const pinned = (v: ComponentView) => (v.used_by ?? []).some((u) => u.kind !== 'mcp_tool');
  const tool = (v: ComponentView) => (v.used_by ?? []).find((u) => u.kind === 'mcp_tool');
  const label = (v: ComponentView) => `${item.name} ${v.version} (${v.code_hash.slice(0, 8)})`;
  const doDelete = async (versions: ComponentView[]) => {
    setConfirm(null);
    setError(null);
    // A key's unused versions go in one call; a component without a key is deleted version by version.
    const all = versions.length === unused.length && versions.length > 1 && item.key !== null;
    await remove(all ? { unusedOf: item.key as string } : { ids: versions.map((v) => v.id) }).catch((err: unknown) => setError(messageOf(err)));
  };
  return (
    <div id={id} className="gallery-versions">
      <table aria-label={`Versions of ${item.name}`}>
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Code</th>
            <th scope="col">Saved</th>
            <th scope="col">Used by</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {item.versions.map((v) => (
            <tr key={v.id} data-version={v.id}>
              <td>{v.version}</td>
              <td>
                <code title={v.code_hash}>{v.code_hash.slice(0, 8)}</code>
              </td>
              <td>{dateTime(v.created_at * 1000)}</td>
              <td>
                {(v.used_by ?? []).length === 0 ? (
                  <span className="muted">nothing</span>
                ) : (
                  <ul className="plain">
                    {(v.used_by ?? []).map((use) => (
                      <li key={`${use.kind}:${use.id}`}>
                        <UseLink use={use} />
                      </li>
                    ))}
                  </ul>
                )}
              </td>
              <td className="row">
                <button type="button" className="small" disabled={choosing !== null} onClick={() => onChoose({ ...item, ref: v.id, version: v.version })} aria-label={`Use ${label(v)}`}>
                  Use
                </button>
                {!pinned(v) && (
                  <button type="button" className="small danger-outline" onClick={() => setConfirm([v])} aria-label={`Delete ${label(v)}`}>
                    Delete
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {unused.length > 1 && (
        <button type="button" className="small danger-outline" onClick={() => setConfirm(unused)}>
          Delete unused versions ({unused.length})
        </button>
      )}
      <ErrorText text={error} />
      {confirm && (
        <ConfirmDialog
          title={confirm.length === 1 ? `Delete ${label(confirm[0] as ComponentView)}?` : `Delete ${confirm.length} unused versions of ${item.name}?`}
          body={
            confirm.length > 1
              ? 'Nothing uses these versions. They are deleted with their test runs and recorded calls; versions a source, a workflow or the MCP server uses stay.'
              : `${toolNote(tool(confirm[0] as ComponentView))}It is deleted with its test runs and recorded calls; the other versions stay.`
          }
          confirmLabel={confirm.length === 1 ? 'Delete version' : `Delete ${confirm.length} versions`}
          onConfirm={() => void doDelete(confirm)}
          onCancel={() => setConfirm(null)}
        />
      )}
    </div>
  );
}
