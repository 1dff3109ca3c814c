// The header of one resource's page (a source, a workflow, a webhook): its name and state, its id
// and facts under it, its actions on the right.
import type { ReactNode } from 'react';

/**
 * A resource page's header: `title` then `badge` as the page's heading (focused on arrival), `id`
 * with `facts` after it, and `actions` (a labelled group when `actionsLabel` is given);
 * `titleClass` lets a page style the title's block.
 */
export function ResourceHeader(props: { title: ReactNode; badge: ReactNode; id: string; facts?: ReactNode; actions: ReactNode; actionsLabel?: string; titleClass?: string }) {
  return (
    <header className="page-head">
      <div className={props.titleClass}>
        <h1 tabIndex={-1}>
          {props.title} {props.badge}
        </h1>
        <p className="muted">
          <code>{props.id}</code>
          {props.facts}
        </p>
      </div>
      <div className={props.actionsLabel ? 'row head-actions' : 'row'} role={props.actionsLabel ? 'group' : undefined} aria-label={props.actionsLabel}>
        {props.actions}
      </div>
    </header>
  );
}

/** A source's or workflow's state: "active" (highlighted) or "inactive". */
export function ActiveBadge({ active }: { active: boolean }) {
  return <span className={active ? 'badge active' : 'badge'}>{active ? 'active' : 'inactive'}</span>;
}
