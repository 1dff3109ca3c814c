// /v1 shapes of saved components, and the accounts and data stores their props use.

export interface ComponentView {
  id: string;
  key: string | null;
  name: string;
  version: string;
  type: 'source' | 'action';
  description: string | null;
  code_hash: string;
  configurable_props: Array<Record<string, unknown> & { name: string; type: string }>;
  /** Rules of the spec or the registry the component does not follow; it loads and runs anyway. */
  warnings: Warning[];
  created_at: number;
  /** The module text and its file name: only in the single read (`GET /v1/components/{id}`). */
  code?: string;
  filename?: string;
}

/** A finding that does not stop a component: where it is and what to do. */
export interface Warning {
  path: string;
  message: string;
}

export interface AccountView {
  id: string;
  app: string;
  name: string;
  /** The credential names, each value masked. */
  credentials: Record<string, string>;
  /** Connected through Connect: the external user it belongs to (docs/connect.md). */
  external_user_id?: string;
  created_at: number;
}

export interface DataStoreView {
  id: string;
  name: string;
  /** Live (unexpired) records. */
  record_count: number;
  created_at: number;
}

export interface DataStoreRecordView {
  key: string;
  /** Any JSON value. */
  value: unknown;
  /** Epoch seconds (fractional for sub-second TTLs) after which the record is gone; null never expires. */
  expires_at: number | null;
}
