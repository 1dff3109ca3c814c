// The MCP server's settings (docs/mcp.md): one private JSON file, DATA_DIR/mcp.json, replaced
// whole on each change; listeners hear of every change (the server announces its new tool list).
import fs from 'node:fs';
import path from 'node:path';
import type { McpSettings } from '../contract/mcp-api';
import { writeFileAtomic } from '../lib/atomic-write';
import { keepPrivate } from '../lib/private-files';

/** Settings of a data dir that has none yet: every saved action, no registry app, no chosen account, live calls. */
export function defaultMcpSettings(): McpSettings {
  return { hidden_actions: [], registry_apps: [], accounts: {}, network_modes: {} };
}

export class McpSettingsStore {
  private settings: McpSettings;
  private writing: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<(settings: McpSettings) => void>();

  private constructor(private readonly file: string) {
    this.settings = readSettings(file);
  }

  /** Reads DATA_DIR/mcp.json (defaults when it does not exist). */
  static open(dataDir: string): McpSettingsStore {
    return new McpSettingsStore(path.join(dataDir, 'mcp.json'));
  }

  /** The current settings. */
  get(): McpSettings {
    return this.settings;
  }

  /** Replaces the settings, writes them, and tells the listeners. */
  async put(next: McpSettings): Promise<void> {
    this.settings = next;
    const text = `${JSON.stringify(next, null, 2)}\n`;
    const done = this.writing.then(() => writeFileAtomic(this.file, text));
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

function readSettings(file: string): McpSettings {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return defaultMcpSettings();
    throw err;
  }
  keepPrivate(file);
  let parsed: Partial<McpSettings>;
  try {
    parsed = JSON.parse(text) as Partial<McpSettings>;
  } catch (err) {
    throw new Error(`${file} is not valid JSON (${(err as Error).message}); fix or delete it (the MCP settings then start over)`);
  }
  // A file written by an older version may lack a field added since.
  return { ...defaultMcpSettings(), ...parsed };
}
