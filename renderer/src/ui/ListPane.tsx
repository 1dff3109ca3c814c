// The left pane of a list screen (sources, webhooks, workflows, data stores): its heading, its
// "New …" links on the right, then the list; the screen's split layout narrows to one pane on a
// detail.
import type { ReactNode } from 'react';
import { BackToList } from './Link';

/**
 * A list screen's split layout: the list pane (titled, with `actions`) beside the `detail` pane,
 * which leads with the way back to the list (`back`) when an item is open.
 */
export function ListPane(props: { title: string; label: string; hasDetail: boolean; back: { to: string; label: string }; actions: ReactNode; list: ReactNode; detail: ReactNode }) {
  return (
    <div className={props.hasDetail ? 'split has-detail' : 'split'}>
      <aside className="list-pane" aria-label={props.label}>
        <div className="row">
          <h2>{props.title}</h2>
          <span className="grow" />
          {props.actions}
        </div>
        {props.list}
      </aside>
      <div className="content-pane">
        {props.hasDetail && <BackToList to={props.back.to} label={props.back.label} />}
        {props.detail}
      </div>
    </div>
  );
}
