// The layout every list screen shares (sources, actions, webhooks, workflows, data stores): the
// list pane, titled, with its "New …" links on the right, beside the detail pane; the split
// narrows to one pane on a detail. What a screen shows with nothing open is its Welcome.
import type { ReactNode } from 'react';
import { BackToList, Link } from './Link';

/**
 * A list screen's split layout: the list pane titled `title` (its landmark "`item` list", its
 * "New `item`" link to `base`/new unless `creates` is false, after `extra` links) beside the
 * `detail` pane, which leads with the way back to `base` when an item is open (`hasDetail`).
 */
export function ListDetail(props: { title: string; item: string; base: string; hasDetail: boolean; creates?: boolean; extra?: ReactNode; list: ReactNode; detail: ReactNode }) {
  const noun = props.item.charAt(0).toUpperCase() + props.item.slice(1);
  return (
    <div className={props.hasDetail ? 'split has-detail' : 'split'}>
      <aside className="list-pane" aria-label={`${noun} list`}>
        <div className="row">
          <h2>{props.title}</h2>
          <span className="grow" />
          {props.extra}
          {props.creates !== false && (
            <Link to={`${props.base}/new`} className="button small primary">
              New {props.item}
            </Link>
          )}
        </div>
        {props.list}
      </aside>
      <div className="content-pane">
        {props.hasDetail && <BackToList to={props.base} label={`All ${props.title.toLowerCase()}`} />}
        {props.detail}
      </div>
    </div>
  );
}

/** A list screen's detail pane with nothing open: the screen's heading (focused on arrival) and what to do first. */
export function Welcome({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="welcome">
      <h1 tabIndex={-1}>{title}</h1>
      {children}
    </div>
  );
}
