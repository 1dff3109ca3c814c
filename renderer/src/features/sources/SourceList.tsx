import type { SourceView } from '../../../../runtime/contract/source-api';
import { useApp } from '../../app/store';
import { dateTime } from '../../ui/format';
import { ItemList } from '../../ui/ItemList';
import { ActiveBadge } from '../../ui/ResourceHeader';
import { endpointOf } from '../props/prop-values';
import { useUnsaved } from './editor-store';
import { HOST_TITLES } from './host-state';

const ago = (ms: number) => {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  return s < 60 ? `${s}s ago` : s < 3600 ? `${Math.floor(s / 60)}m ago` : s < 86400 ? `${Math.floor(s / 3600)}h ago` : dateTime(ms).slice(0, 10);
};

/** The deployed sources with their status: active, last event, errors in recent logs. */
export function SourceList({ selectedId }: { selectedId: string | null }) {
  const { sources, sourcesLoaded } = useApp();
  const unsaved = useUnsaved((u) => u.keys);
  return (
    <ItemList label="Sources" items={sources} loaded={sourcesLoaded} empty="No sources yet." href={(s) => `/sources/${encodeURIComponent(s.id)}`} selectedId={selectedId}>
      {(s: SourceView) => {
        const st = s.activity;
        const endpoint = endpointOf(s);
        return (
          <>
            <span className="name">
              {s.name}
              {/* Out of the link's name (tests and screen readers find the source by it); the editor says it in words. */}
              {unsaved.has(`source:${s.id}`) && (
                <span className="draft-dot" aria-hidden="true" title="Unsaved changes" data-testid="unsaved-mark">
                  {' '}
                  ●
                </span>
              )}
            </span>
            <ActiveBadge active={s.active} />
            <span className="badge" data-testid="host-state" title={HOST_TITLES[s.host]}>
              {s.host}
            </span>
            <span className="id">{s.id}</span>
            {s.external_user_id && (
              <span className="owner" data-testid="source-external-user">
                Connect trigger of <code>{s.external_user_id}</code>
              </span>
            )}
            {endpoint && <span className="endpoint">{endpoint}</span>}
            <span className="stats">
              {st ? (st.last_event_at ? `last event ${ago(st.last_event_at)}` : 'no events') : ' '}
              {st && st.recent_errors > 0 && (
                <span className="badge failed">
                  {st.recent_errors} error{st.recent_errors === 1 ? '' : 's'}
                </span>
              )}
            </span>
          </>
        );
      }}
    </ItemList>
  );
}
