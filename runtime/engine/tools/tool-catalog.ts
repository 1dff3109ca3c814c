// Which actions are MCP tools, under which names, bound to which accounts and network mode
// (docs/mcp.md): every saved action not hidden in the settings, then the registry actions of the
// chosen apps. A session may choose its own apps, accounts and network mode over the settings.

import type { ComponentLibrary } from '../../components/library';
import type { ComponentRegistry } from '../../components/registry';
import type { ConfigurableProp } from '../../contract/component-shape';
import type { McpAccountBinding, McpSettings } from '../../contract/mcp-api';
import type { NetworkMode } from '../../contract/network-api';
import { slugify } from '../../lib/slug';
import { appAccountWarnings } from '../../props/app/app-prop';
import type { McpSettingsStore } from '../../store/mcp-settings';
import type { ComponentRecord, Metadata } from '../../store/metadata';
import { OPTIONS_TOOL, RELOAD_TOOL } from './tool-schema';

/** What one MCP session chose over the settings (`spout mcp --app/--account/--network`). */
export interface ToolScope {
  /** Replaces the settings' registry apps. */
  apps?: string[];
  /** Accounts by app, over the settings' ones. */
  accounts?: Record<string, string>;
  /** The network mode of every tool call, over the settings' per-action modes. */
  network?: NetworkMode;
}

/** One candidate tool: an action, what it is called, and how it runs. */
export interface CatalogEntry {
  name: string;
  origin: 'saved' | 'registry';
  /** The key, or the id of a saved action without one: what settings name it by. */
  ref: string;
  key: string | null;
  /** The registry app folder of a registry action. */
  app: string | null;
  /** The saved component; null for a registry action not saved yet. */
  component: ComponentRecord | null;
  title: string;
  description: string | null;
  props: ConfigurableProp[];
  /** False for a saved action the settings hide. */
  exposed: boolean;
  network: NetworkMode;
}

/** How long a tool list waits for the registry's index before answering with what is indexed. */
const REGISTRY_WAIT_MS = 5000;

/** Longest tool name: what the strictest common clients accept. */
const MAX_NAME = 64;

/** A tool name from a key or a component name: letters, digits, `_` and `-` only. */
export function toolName(ref: string): string {
  const name = ref.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, MAX_NAME);
  return name || 'action';
}

export interface ToolCatalogDeps {
  metadata: Metadata;
  library: ComponentLibrary;
  registry: ComponentRegistry;
  settings: McpSettingsStore;
}

/** The actions an MCP session may call, computed from the saved components, the registry and the settings. */
export class ToolCatalog {
  constructor(private readonly deps: ToolCatalogDeps) {}

  /** The settings in force. */
  settings(): McpSettings {
    return this.deps.settings.get();
  }

  /** Every candidate tool (hidden saved actions included), saved ones first, names unique. */
  async entries(scope: ToolScope = {}): Promise<CatalogEntry[]> {
    const settings = this.settings();
    const apps = scope.apps ?? settings.registry_apps;
    if (apps.length > 0) await this.deps.registry.refresh(REGISTRY_WAIT_MS);
    const entries = this.savedEntries(scope);
    const saved = new Set(entries.map((e) => e.ref));
    const registry: CatalogEntry[] = [];
    for (const r of this.deps.registry.list()) {
      if (r.type !== 'action' || !apps.includes(r.app) || saved.has(r.key)) continue;
      const component = this.deps.library.findByHash(r.code_hash) ?? null;
      registry.push({ name: '', origin: 'registry', ref: r.key, key: r.key, app: r.app, component, title: r.name, description: r.description, props: r.configurable_props, exposed: true, network: networkOf(settings, r.key, scope) });
    }
    nameEntries(registry, new Set(entries.map((e) => e.name)));
    return [...entries, ...registry];
  }

  /**
   * The saved actions' tools (hidden ones included), named: the newest saved version of each key
   * is the tool (registry copies are the registry's). Their names come first, so they never
   * depend on the registry's.
   */
  savedEntries(scope: Pick<ToolScope, 'network'> = {}): CatalogEntry[] {
    const settings = this.settings();
    const saved = new Map<string, ComponentRecord>();
    for (const c of this.deps.metadata.data.components) if (c.type === 'action' && c.origin !== 'registry') saved.set(c.key ?? c.id, c);
    const entries = [...saved].map(([ref, c]): CatalogEntry => {
      const exposed = !settings.hidden_actions.includes(ref) && !settings.hidden_actions.includes(c.id);
      return { name: '', origin: 'saved', ref, key: c.key, app: null, component: c, title: c.name, description: c.description, props: c.configurable_props, exposed, network: networkOf(settings, ref, scope) };
    });
    nameEntries(entries, new Set());
    return entries;
  }

  /** The account each app prop of a tool is bound to: the session's, else the settings', else the app's only account. */
  accounts(entry: CatalogEntry, scope: ToolScope = {}): McpAccountBinding[] {
    const chosen = { ...this.settings().accounts, ...scope.accounts };
    const all = this.deps.metadata.data.accounts;
    return entry.props
      .filter((p) => p.type === 'app')
      .map((p): McpAccountBinding => {
        const app = String(p.app ?? p.name);
        const id = chosen[app];
        if (id !== undefined) {
          const account = all.find((a) => a.id === id);
          if (account?.app === app) return { prop: p.name, app, status: 'bound', account_id: id, problem: null };
          return { prop: p.name, app, status: 'choose', account_id: null, problem: account ? `account ${id} chosen for app "${app}" is for app "${account.app}"` : `account ${id} chosen for app "${app}" no longer exists; choose another in the MCP settings` };
        }
        const candidates = all.filter((a) => a.app === app);
        if (candidates.length === 1) return { prop: p.name, app, status: 'bound', account_id: (candidates[0] as { id: string }).id, problem: null };
        if (candidates.length > 1) {
          const list = candidates.map((a) => `${a.id} (${a.name})`).join(', ');
          return { prop: p.name, app, status: 'choose', account_id: null, problem: `app "${app}" has ${candidates.length} connected accounts (${list}); choose one in the MCP settings (PUT /v1/mcp/settings accounts) or with spout mcp --account ${app}=apn_…` };
        }
        const needsOne = appAccountWarnings([p], {}).length > 0;
        return { prop: p.name, app, status: 'none', account_id: null, problem: needsOne ? `no connected account for app "${app}": the action runs with an empty $auth; connect one (POST /v1/accounts) to call ${app} for real` : null };
      });
  }

  /** Calls `listener` when the tools may have changed (an action saved or removed, the settings changed); returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    const stops = [this.deps.library.subscribe(listener), this.deps.settings.subscribe(listener)];
    return () => stops.forEach((stop) => stop());
  }
}

/** A tool's network mode: the session's, else the settings' for it, else live. */
function networkOf(settings: McpSettings, ref: string, scope: Pick<ToolScope, 'network'>): NetworkMode {
  return scope.network ?? settings.network_modes[ref] ?? 'live';
}

/** Names entries uniquely, never a helper tool's nor one `taken`; a clash gets a numbered name, in list order. */
function nameEntries(entries: CatalogEntry[], taken: Set<string>): void {
  for (const name of [OPTIONS_TOOL, RELOAD_TOOL]) taken.add(name);
  for (const e of entries) {
    const base = toolName(e.key ?? slugify(e.title));
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base.slice(0, MAX_NAME - String(n).length - 1)}_${n}`;
    taken.add(name);
    e.name = name;
  }
}
