import type { ReactNode } from 'react';
import { segments, useRoute } from '../../app/router';
import { Link } from '../../ui/Link';
import { ListDetail, Welcome } from '../../ui/ListDetail';
import { ActionCreate } from './ActionCreate';
import { ActionList } from './ActionList';
import { ActionPage } from './ActionPage';
import { useSavedActions } from './action-data';

/** Actions: the saved actions beside New action (`/actions/new`) or one action (`/actions/{key or sc_…}`). */
export function ActionsScreen() {
  const path = useRoute((s) => s.path);
  const [, ref] = segments(path);
  const { actions, error } = useSavedActions();
  let content: ReactNode;
  if (ref === 'new') content = <ActionCreate />;
  else if (ref) content = <ActionPage key={ref} actionRef={ref} />;
  else
    content = (
      <Welcome title="Actions">
        <p>An action does one thing when it runs: call an API, transform data, send a message. It is not deployed: write it, save it, and test-run it with its props form. A saved action can be a step of a workflow and a tool for AI agents (MCP).</p>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <Link to="/actions/new" className="button primary">
          {actions?.length ? 'Write a new action' : 'Write your first action'}
        </Link>
      </Welcome>
    );
  return <ListDetail title="Actions" item="action" base="/actions" hasDetail={Boolean(ref)} list={<ActionList actions={actions} selectedRef={ref && ref !== 'new' ? ref : null} />} detail={content} />;
}
