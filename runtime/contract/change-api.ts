// Versions of what two places may edit at once (sources, workflows, webhooks): each change counts
// one, says who made it, and a save based on an older version is refused (docs/api.md, "Versions").

/** Who made a change: the client that sent it (`x-spout-client`, or the UI's own header), else `api`. */
export type ChangeOrigin = 'ui' | 'cli' | 'dev' | 'api' | 'sync' | 'connect' | 'mcp';

/** Every ChangeOrigin, in the order docs list them. */
export const CHANGE_ORIGINS: readonly ChangeOrigin[] = ['ui', 'cli', 'dev', 'api', 'sync', 'connect', 'mcp'];

/** The header a client names itself with (`x-spout-client: cli`); the UI sends `x-spout-ui` instead. */
export const CLIENT_HEADER = 'x-spout-client';

/** How messages name each origin: "changed from the CLI". */
export const CHANGE_ORIGIN_LABELS: Record<ChangeOrigin, string> = {
  ui: 'the UI',
  cli: 'the CLI',
  dev: 'spout dev',
  api: 'the API',
  sync: 'sync',
  connect: 'Connect',
  mcp: 'an MCP client',
};

/** The version fields of a source, workflow or webhook view. */
export interface VersionFields {
  /** 1 when created, one more at each change (code, props, name, active, settings). */
  version: number;
  /** Who made the last change; null for records older than versions. */
  changed_by: ChangeOrigin | null;
  /** When (epoch seconds). */
  changed_at: number;
}

/** What a 409 for a stale save carries besides its message (`conflict` of the problem). */
export interface VersionConflictView {
  kind: 'source' | 'workflow' | 'webhook';
  id: string;
  name: string;
  /** The version the service has now: send it as `base_version` to replace it knowingly. */
  current_version: number;
  /** The version the refused change was based on. */
  base_version: number;
  changed_by: ChangeOrigin | null;
  changed_at: number;
}
