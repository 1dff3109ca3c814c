// Settings → MCP's data (docs/mcp.md): the MCP settings, every candidate tool as an agent would see
// it, the client snippets, and the registry's apps to choose from.
import { useEffect, useState } from 'react';
import type { McpSettings, McpSnippets } from '../../../../runtime/contract/mcp-api';
import type { SettingsChange } from '../../api/save-queue';
import { usePoll } from '../../api/use-poll';
import { useSaveQueue } from '../../api/use-save-queue';
import { api } from '../../api/v1';

/** How often the tool list is read again: actions saved from the CLI or an editor show up. */
const TOOLS_EVERY_MS = 5000;

/** Saves MCP settings given, or a function of the settings as last saved; resolves once saved. */
export type Change = (next: SettingsChange<McpSettings, Partial<McpSettings>>) => Promise<void>;

/** The MCP settings, the tools (read again every 5 s and after each change) and the snippets. */
export function useMcp() {
  const settings = usePoll('mcp-settings', () => api.getMcpSettings());
  const tools = usePoll('mcp-tools', () => api.listMcpTools(), TOOLS_EVERY_MS);
  const snippets = usePoll('mcp-snippets', () => api.getMcpSnippets());
  const { set: setSettings } = settings;
  const { reload: reloadTools } = tools;
  const current = settings.data;
  /**
   * Replaces the settings given (the others stay); the tools are read again, as agents now see
   * them. Never dropped: a change made while another is saved goes in the next request.
   */
  const change: Change = useSaveQueue(
    async (next: Partial<McpSettings>) => {
      const saved = await api.putMcpSettings(next);
      setSettings(saved);
      await reloadTools();
      return saved;
    },
    () => current,
  );
  return { settings: settings.data, tools: tools.data, snippets: snippets.data, error: settings.error ?? tools.error ?? snippets.error, change };
}

/** Apps of the registry with actions whose key, name, app or description match `text`, with how many actions each has among the matches. */
export async function appsMatching(text: string): Promise<Array<{ app: string; actions: number }>> {
  const found = await api.searchRegistry(text, 'action');
  const counts = new Map<string, number>();
  for (const c of found) counts.set(c.app, (counts.get(c.app) ?? 0) + 1);
  return [...counts].map(([app, actions]) => ({ app, actions })).sort((a, b) => a.app.localeCompare(b.app));
}

/** How many actions the registry has in an app folder (0: none, or no such app). */
export const registryActionCount = async (app: string) => (await api.listRegistry({ type: 'action', app, limit: 1 })).page_info.total_count;

/** The developer toolset's snippets for `root` (an absolute folder), read when `on`; null while off or not read yet. */
export function useDevSnippets(on: boolean, root: string): { snippets: McpSnippets | null; error: string | null } {
  const [state, setState] = useState<{ snippets: McpSnippets | null; error: string | null }>({ snippets: null, error: null });
  useEffect(() => {
    setState({ snippets: null, error: null });
    if (!on || !root) return;
    let current = true;
    api.getMcpSnippets({ roots: [root] }).then(
      (snippets) => current && setState({ snippets, error: null }),
      (err: Error) => current && setState({ snippets: null, error: err.message }),
    );
    return () => void (current = false);
  }, [on, root]);
  return state;
}
