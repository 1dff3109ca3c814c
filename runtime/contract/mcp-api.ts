// /v1 shapes of the MCP server (docs/mcp.md): its settings, its tools as a settings screen lists
// them, and the configuration snippets of common MCP clients.
import type { NetworkMode } from './network-api';

/** What the MCP server exposes and how (`GET/PUT /v1/mcp/settings`). */
export interface McpSettings {
  /** Saved actions left out of the tools, by key (or `sc_…` id for an action without a key); every other saved action is a tool. */
  hidden_actions: string[];
  /** Apps whose registry actions are tools too (`spout mcp --app` replaces the list for one session). */
  registry_apps: string[];
  /** The connected account (`apn_…`) bound to the app props of each app, by app slug (`spout mcp --account` overrides it). */
  accounts: Record<string, string>;
  /** How a tool's outgoing HTTP calls are served, by action key (or id); an action not named here runs `live`. */
  network_modes: Record<string, NetworkMode>;
  /** Settings → MCP's developer toolset switch: whether it shows how coding agents connect (sessions still ask for the toolset themselves). */
  dev_toolset: boolean;
  /** The folder that screen gives agents (`--root`): an absolute path, or "" for none yet. */
  dev_root: string;
}

/** A JSON Schema as a tool's input schema uses it (draft 2020-12 keywords). */
export interface JsonSchema {
  type?: 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
}

/** How one app prop of a tool gets its account: never from the agent. */
export interface McpAccountBinding {
  prop: string;
  app: string;
  /**
   * `bound`: to `account_id`; `none`: the app has no connected account, so calls run with an empty
   * `$auth`; `choose`: several accounts and none chosen (or the chosen one is gone): calls are
   * refused until one is chosen.
   */
  status: 'bound' | 'none' | 'choose';
  account_id: string | null;
  /** What the user should do, when anything (an app that needs credentials has none, say). */
  problem: string | null;
}

/** A candidate tool as `GET /v1/mcp/tools` lists it: every saved action (hidden ones too) and the chosen apps' registry actions. */
export interface McpToolView {
  /** The MCP tool name (from the component key). */
  name: string;
  /** `saved`: a saved action; `registry`: an action of the local registry, chosen by its app. */
  origin: 'saved' | 'registry';
  /** The saved component it runs; null for a registry action not run yet (it is saved on its first call). */
  component_id: string | null;
  component_key: string | null;
  /** What settings name it by: the key, or the id of an action without one. */
  ref: string;
  /** The registry app folder of a registry action; null for saved ones. */
  app: string | null;
  /** False for a saved action listed in `hidden_actions`. */
  exposed: boolean;
  description: string;
  input_schema: JsonSchema;
  network_mode: NetworkMode;
  accounts: McpAccountBinding[];
}

/** A client's configuration for Spout's MCP server, ready to paste. */
export interface McpClientSnippet {
  client: 'claude-code' | 'claude-desktop' | 'cursor' | 'vscode';
  /** The client's name for people. */
  name: string;
  transport: 'stdio' | 'http';
  /** Where the client reads it from. */
  file: string;
  /** The JSON to merge into that file (Claude Code: `{command}`, the shell command that adds it). */
  config: Record<string, unknown>;
}

/** How an MCP client starts `spout mcp` for this service. */
export interface McpStdioCommand {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** `GET /v1/mcp/snippets`: how an MCP client reaches this service. */
export interface McpSnippets {
  /** The stdio command (`spout mcp`) with this service's data dir; `env` names the key when it is not kept there (started with --api-key). */
  stdio: McpStdioCommand;
  /** The streamable-HTTP endpoint and the header it needs (the key as a placeholder: snippets never hold it). */
  http: { url: string; headers: Record<string, string> };
  clients: McpClientSnippet[];
}
