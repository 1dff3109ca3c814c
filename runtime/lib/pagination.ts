import { z } from 'zod';
import type { ListResponse, PageQuery } from '../contract/page';

/** The page envelope of every list response. */
export type Page<T> = ListResponse<T>;

/** `limit`, `before`, `after` of list calls, as given in a query string or a JSON body. */
export const pageParams = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  before: z.string().min(1).optional(),
  after: z.string().min(1).optional(),
});

/**
 * One page of `items` (already newest first): `before` gives items after that cursor in the list
 * (older), `after` items before it (newer).
 */
export function paginate<T extends { id: string }, V>(items: readonly T[], page: PageQuery, view: (item: T) => V): Page<V> {
  let start = 0;
  let end = items.length;
  if (page.before) {
    const i = items.findIndex((item) => item.id === page.before);
    start = i === -1 ? items.length : i + 1;
  }
  if (page.after) {
    const i = items.findIndex((item) => item.id === page.after);
    end = i === -1 ? 0 : i;
    start = Math.max(start, end - page.limit);
  }
  const slice = items.slice(start, Math.min(end, start + page.limit));
  return {
    page_info: {
      total_count: items.length,
      count: slice.length,
      start_cursor: slice[0]?.id ?? null,
      end_cursor: slice[slice.length - 1]?.id ?? null,
    },
    data: slice.map(view),
  };
}
