// What the command palette offers: places it goes to (from what the stores already hold) and
// commands on the current screen, filtered by what was typed.
import type { ComponentView } from '../../../../runtime/contract/component-api';
import type { SourceView } from '../../../../runtime/contract/source-api';
import type { WebhookView } from '../../../../runtime/contract/webhook-api';
import type { WorkflowView } from '../../../../runtime/contract/workflow-api';
import { segments } from '../../app/router';

/** One choice: a place to go to (`to`) or a command to run (`command`). */
export type PaletteItem = { id: string; kind: 'source' | 'action' | 'workflow' | 'webhook' | 'run' | 'event' | 'command'; label: string; detail: string } & ({ to: string } | { command: 'run-now' | 'replay'; target: string });

/** What the palette searches: the stores' lists and where the user is. */
export interface PaletteContext {
  path: string;
  sources: readonly SourceView[];
  components: readonly ComponentView[];
  workflows: readonly WorkflowView[];
  webhooks: readonly WebhookView[];
}

const enc = encodeURIComponent;

/** The commands that make sense at `path`: new source, the stream and deploy always, run now on a source, replay on a run. */
function commands(ctx: PaletteContext): PaletteItem[] {
  const [section, id, tab, item] = segments(ctx.path);
  const source = section === 'sources' ? ctx.sources.find((s) => s.id === id) : undefined;
  const items: PaletteItem[] = [
    { id: 'cmd:new', kind: 'command', label: 'New source', detail: 'write or pick a component in the editor', to: '/sources/new' },
    { id: 'cmd:stream', kind: 'command', label: 'Go to stream', detail: 'runs and events of every source, action and workflow, live', to: '/stream' },
    source ? { id: 'cmd:deploy', kind: 'command', label: `Deploy ${source.name}`, detail: 'open its code in the editor', to: `/sources/${enc(source.id)}` } : { id: 'cmd:deploy', kind: 'command', label: 'Deploy a source', detail: 'open the editor', to: '/sources/new' },
  ];
  if (source) items.push({ id: 'cmd:run', kind: 'command', label: `Run now: ${source.name}`, detail: 'run the source once', command: 'run-now', target: source.id });
  if (source && tab === 'activity' && item) items.push({ id: 'cmd:replay', kind: 'command', label: `Replay run ${item}`, detail: 'run it again with the same input', command: 'replay', target: item });
  return items;
}

/** Every place the stores know of. */
function places(ctx: PaletteContext): PaletteItem[] {
  return [
    ...ctx.sources.map((s): PaletteItem => ({ id: s.id, kind: 'source', label: s.name, detail: s.id, to: `/sources/${enc(s.id)}` })),
    ...ctx.components.filter((c) => c.type === 'action').map((c): PaletteItem => ({ id: c.id, kind: 'action', label: c.name, detail: c.key ?? c.id, to: `/actions/${enc(c.key ?? c.id)}` })),
    ...ctx.workflows.map((w): PaletteItem => ({ id: w.id, kind: 'workflow', label: w.name, detail: w.id, to: `/workflows/${enc(w.id)}` })),
    ...ctx.webhooks.map((w): PaletteItem => ({ id: w.id, kind: 'webhook', label: w.name, detail: w.url, to: `/webhooks/${enc(w.id)}` })),
  ];
}

/** The items matching `query` (every word in the label, detail or kind), commands first. */
export function paletteItems(ctx: PaletteContext, query: string): PaletteItem[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (i: PaletteItem) => {
    const text = `${i.label} ${i.detail} ${i.kind}`.toLowerCase();
    return words.every((w) => text.includes(w));
  };
  return [...commands(ctx), ...places(ctx)].filter(matches).slice(0, 50);
}

/** What kind of id `query` is typed whole: a run (`inv_…`) or an event (`<ms>-<seq>`), to be read from the service. */
export function idKind(query: string): 'run' | 'event' | null {
  const q = query.trim();
  if (/^inv_[A-Za-z0-9_-]+$/.test(q)) return 'run';
  if (/^\d{10,}-\d+$/.test(q)) return 'event';
  return null;
}
