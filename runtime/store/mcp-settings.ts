// The MCP server's settings (docs/mcp.md): one private JSON file, DATA_DIR/mcp.json, replaced
// whole on each change; listeners hear of every change (the server announces its new tool list).
import path from 'node:path';
import type { McpSettings } from '../contract/mcp-api';
import type { ProblemSink } from '../lib/file-problems';
import { readStateFile, writeStateFile } from '../lib/state-file';

/** Settings of a data dir that has none yet: every saved action, no registry app, no chosen account, live calls, the developer toolset's switch off. */
export function defaultMcpSettings(): McpSettings {
  return { hidden_actions: [], registry_apps: [], accounts: {}, network_modes: {}, dev_toolset: false, dev_root: '' };
}

export class McpSettingsStore {
  private settings: McpSettings;
  private writing: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<(settings: McpSettings) => void>();

  private constructor(
    private readonly file: string,
    report?: ProblemSink,
  ) {
    // A damaged file is set aside and its previous version taken (defaults when there is none).
    const read = readStateFile(file, parseSettings, report);
    this.settings = read.value ?? defaultMcpSettings();
  }

  /** Reads DATA_DIR/mcp.json (defaults when it does not exist); damage goes to `report`. */
  static open(dataDir: string, report?: ProblemSink): McpSettingsStore {
    return new McpSettingsStore(path.join(dataDir, 'mcp.json'), report);
  }

  /** The current settings. */
  get(): McpSettings {
    return this.settings;
  }

  /** Replaces the settings, writes them, and tells the listeners. */
  async put(next: McpSettings): Promise<void> {
    this.settings = next;
    const text = `${JSON.stringify(next, null, 2)}\n`;
    const done = this.writing.then(() => writeStateFile(this.file, text));
    this.writing = done.catch(() => undefined);
    await done;
    for (const listener of this.listeners) listener(next);
  }

  /** Calls `listener` after each change; returns the unsubscribe function. */
  subscribe(listener: (settings: McpSettings) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** The settings in `text`; a file written by an older version may lack a field added since. */
export function parseSettings(text: string): McpSettings {
  const parsed = JSON.parse(text) as unknown;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a JSON object');
  return { ...defaultMcpSettings(), ...(parsed as Partial<McpSettings>) };
}
