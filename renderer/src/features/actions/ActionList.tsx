import type { SavedActionView } from '../../../../runtime/contract/action-api';
import { dateTime, when } from '../../ui/format';
import { ItemList } from '../../ui/ItemList';

/** How a run ended, in the list's words. */
const RUN_WORDS: Record<string, string> = { ok: 'success', error: 'error', timeout: 'timed out', crashed: 'crashed' };

/** The saved actions: name, key, newest version, when it was saved and how its last run ended. */
export function ActionList({ actions, selectedRef }: { actions: SavedActionView[] | null; selectedRef: string | null }) {
  const selected = actions?.find((a) => a.ref === selectedRef || a.versions.some((v) => v.id === selectedRef));
  return (
    <ItemList label="Actions" items={actions ?? []} loaded={actions !== null} empty="No saved actions yet." href={(a) => `/actions/${encodeURIComponent(a.ref)}`} selectedId={selected?.id ?? null}>
      {(a) => (
        <>
          <span className="name">{a.name}</span>
          {a.last_run ? (
            <span className={a.last_run.status === 'ok' ? 'badge active' : 'badge failed'} data-testid="last-run" title={`last run ${dateTime(a.last_run.started_at)}`}>
              {RUN_WORDS[a.last_run.status] ?? a.last_run.status}
            </span>
          ) : (
            <span className="badge" data-testid="last-run">
              not run
            </span>
          )}
          <span className="id">{a.key ?? a.id}</span>
          <span className="stats">
            v{a.version} · saved {when(a.saved_at)}
            {a.versions.length > 1 ? ` · ${a.versions.length} versions` : ''}
            {a.registry ? ' · registry' : ''}
          </span>
        </>
      )}
    </ItemList>
  );
}
