// /v1 shapes of saved components, the registry, prop configuration, and the accounts and data stores their props use.

import type { ConsoleLine } from './action-api';
import type { ComponentProblem, ConfigurableProp } from './component-shape';
import type { PropOption } from './host-protocol';

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
  /** What runs this version (lists and the single read): it can be deleted only when this is empty. */
  used_by?: ComponentUse[];
  /** The original files it was bundled from (a registry component's, or files edited since): only in the single read, absent for single-file code. */
  files?: ComponentFile[];
  /** The path among `files` of the component's own file. */
  entry_file?: string;
}

/** Something that runs a saved component version: a deployed source, a workflow's step, or the MCP tool it is. */
export interface ComponentUse {
  kind: 'source' | 'workflow' | 'mcp_tool';
  /** The source's `dc_…`, the workflow's `p_…`, or the tool's name. */
  id: string;
  name: string;
}

/**
 * What `POST /v1/components/check` answers: the component as saving it would, with nothing saved.
 * `id` and `created_at` are the saved component's of exactly this code, else null.
 */
export interface ComponentCheckView extends Omit<ComponentView, 'id' | 'created_at'> {
  id: string | null;
  created_at: number | null;
}

/**
 * One original file of a component made of several: a registry component's own file, or a file
 * it imports by a relative path (its app file, `common/` modules) or its app's package.json.
 * `path` is relative to the registry folder (`<app>/sources/<name>/<name>.mjs`).
 */
export interface ComponentFile {
  path: string;
  code: string;
}

/** The files a component is bundled from, and which of them is the component. */
export interface ComponentFiles {
  files: ComponentFile[];
  entry_file: string;
}

/** What `POST /v1/components/lint` found, without saving: the component (null when it has errors) with its props, its errors and warnings. */
export interface ComponentLint {
  errors: ComponentProblem[];
  warnings: ComponentProblem[];
  component: { key: string | null; name: string; version: string; type: 'source' | 'action'; configurable_props: ConfigurableProp[] } | null;
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

/** A registry component as the API lists it. */
export interface RegistryComponent {
  key: string;
  name: string;
  version: string;
  type: 'source' | 'action';
  description: string | null;
  /** The `<app>` folder it sits in. */
  app: string;
  /** Its path inside the registry folder (`<app>/sources/<name>/<name>.mjs`). */
  path: string;
  /** The registry folder (absolute). */
  folder: string;
  bundled: boolean;
  code_hash: string;
  configurable_props: ConfigurableProp[];
  /** Rules of the spec or the registry it does not follow (semver version, key pattern, a shadowed duplicate…); it is indexed anyway. */
  warnings: ComponentProblem[];
}

/** A registry component with the code to deploy it (`code`: the file with its relative imports inlined) and the original files. */
export interface RegistryComponentWithCode extends RegistryComponent, ComponentFiles {
  code: string;
  filename: string;
}

/** A page of a prop's options (`POST /v1/components/configure`), or the errors its options method threw. */
export interface OptionsAnswer {
  options: PropOption[];
  context: unknown;
  errors: string[];
  logs: ConsoleLine[];
}

/**
 * Which component a form configures (`POST /v1/components/configure` and `/props`): a saved
 * component (id or key), a registry key, a source (`dc_…`), or module text not saved.
 */
export type ConfigureTarget = { id: string } | { component_code: string; component_filename?: string };

/** What `POST /v1/components/configure` takes: the prop of a component and the values so far. */
export type ConfigurePropRequest = ConfigureTarget & {
  prop_name: string;
  configured_props: Record<string, unknown>;
  page?: number;
  prev_context?: Record<string, unknown> | null;
  query?: string;
};

/** One problem of a form's values (`POST /v1/components/props/check`): the prop it belongs to and the message for its field. */
export interface PropCheckProblem {
  path: string;
  message: string;
  prop: string | null;
  field_message: string;
}

/** What `POST /v1/accounts` takes. */
export interface AccountInput {
  app: string;
  name?: string;
  credentials: Record<string, string>;
}
