import type { ReactNode } from 'react';
import { segments, useRoute } from '../../app/router';
import { useApp } from '../../app/store';
import { Link } from '../../ui/Link';
import { ListDetail, Welcome } from '../../ui/ListDetail';
import { SourceCreate } from './SourceCreate';
import { SourceDetail } from './SourceDetail';
import { SourceList } from './SourceList';

/** Sources: the list beside the create form or the selected source. */
export function SourcesScreen() {
  const { path, query } = useRoute();
  const sources = useApp((s) => s.sources);
  const [, id, tab, item] = segments(path);
  const creating = id === 'new' || (!id && query.get('action') === 'create');
  let content: ReactNode;
  const type = query.get('type');
  if (creating) content = <SourceCreate registryKey={query.get('key')} componentId={query.get('component')} url={query.get('url')} type={type === 'action' || type === 'source' ? type : null} />;
  else if (id) content = <SourceDetail id={id} tab={tab ?? 'configure'} item={item ?? null} />;
  else
    content = (
      <Welcome title="Sources">
        {sources.length === 0 ? (
          <>
            <p>A source turns HTTP requests and timers into events. Write one in the editor, deploy it, send it a request and watch its logs and events live.</p>
            <Link to="/sources/new" className="button primary">
              Create your first source
            </Link>
          </>
        ) : (
          <p>Select a source to see its configuration, logs and events, or create a new one.</p>
        )}
      </Welcome>
    );
  return (
    <ListDetail
      title="Sources"
      item="source"
      base="/sources"
      hasDetail={Boolean(id)}
      extra={
        <Link to="/actions/new" className="button small">
          New action
        </Link>
      }
      list={<SourceList selectedId={creating ? null : (id ?? null)} />}
      detail={content}
    />
  );
}
