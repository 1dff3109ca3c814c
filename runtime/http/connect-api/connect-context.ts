// What the Connect routes share: the API context, paging in Connect's manner, and the one way a
// registry key becomes a saved component.

import type { ConnectList } from '../../contract/connect-api';
import type { ComponentRecord } from '../../store/metadata';
import type { ApiContext } from '../api/api-context';
import { registryComponent, registryNotFound } from '../api/registry-routes';
import { HttpError } from '../edge/error-statuses';

/** The Connect routes reach what the /v1 routes do. */
export type ConnectContext = ApiContext;

/** `limit`, `after`, `before` of Connect lists. */
export interface ConnectPageQuery {
  limit: number;
  after?: string | undefined;
  before?: string | undefined;
}

/**
 * One page of `items` in their order: `after` starts past that cursor, `before` ends before it.
 * `end_cursor` is null on the last page (the SDK's pager stops there), `start_cursor` on the first.
 */
export function connectPage<T, V>(items: readonly T[], q: ConnectPageQuery, cursor: (item: T) => string, view: (item: T) => V): ConnectList<V> {
  let start = 0;
  let end = items.length;
  if (q.after !== undefined) {
    const i = items.findIndex((item) => cursor(item) === q.after);
    start = i === -1 ? items.length : i + 1;
  }
  if (q.before !== undefined) {
    const i = items.findIndex((item) => cursor(item) === q.before);
    end = i === -1 ? 0 : i;
    if (q.after === undefined) start = Math.max(0, end - q.limit);
  }
  const slice = items.slice(start, Math.min(end, start + q.limit));
  const last = start + slice.length;
  return {
    page_info: {
      total_count: items.length,
      count: slice.length,
      start_cursor: start > 0 && slice.length > 0 ? cursor(slice[0] as T) : null,
      end_cursor: last < end && slice.length > 0 ? cursor(slice[slice.length - 1] as T) : null,
    },
    data: slice.map(view),
  };
}

/** The saved component of a registry key (or a saved component's id or key) a Connect call names. */
export async function componentFor(ctx: ConnectContext, id: string, type?: ComponentRecord['type']): Promise<ComponentRecord> {
  const component = ctx.library.find(id) ?? (/^(sc|dc)_/.test(id) ? undefined : await registryComponent(ctx, id));
  if (!component) throw /^sc_/.test(id) ? new HttpError(404, `component ${id} was not found`) : registryNotFound(ctx, id);
  if (type && component.type !== type) {
    throw new HttpError(400, type === 'action' ? `${id} is a trigger (a source): deploy it with triggers.deploy, actions are run` : `${id} is an action: run it with actions.run, triggers are deployed`);
  }
  return component;
}
