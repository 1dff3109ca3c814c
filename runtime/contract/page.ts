// Pages of list responses: the envelope and the cursor query.

export interface PageInfo {
  total_count: number;
  count: number;
  start_cursor: string | null;
  end_cursor: string | null;
}

export interface ListResponse<T> {
  page_info: PageInfo;
  data: T[];
}

/** `limit` (1..100), `before`, `after` of a list call. */
export interface PageQuery {
  limit: number;
  before?: string | undefined;
  after?: string | undefined;
}
