import { type KeyboardEvent, useEffect, useState } from 'react';
import { messageOf } from '../../api/client';
import { useRoute } from '../../app/router';
import { useApp } from '../../app/store';
import { Modal } from '../../ui/ConfirmDialog';
import { idKind, type PaletteItem, paletteItems } from './palette-items';
import { findEvent, findRun, runCommand } from './palette-requests';

/** The command palette (Ctrl+K): type to find a source, action, workflow, webhook, run or event id, or a command; arrows pick, Enter goes. */
export function CommandPalette({ onClose }: { onClose(): void }) {
  const { path, navigate } = useRoute();
  const { sources, components, workflows, webhooks, toast } = useApp();
  useEffect(() => {
    // The palette searches every list, even of screens not opened yet.
    const app = useApp.getState();
    if (!app.webhooksLoaded) void app.loadWebhooks();
    if (!app.workflowsLoaded) void app.loadWorkflows();
    if (app.components.length === 0) void app.loadComponents();
  }, []);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [byId, setById] = useState<{ query: string; item: PaletteItem | null } | null>(null);

  const kind = idKind(query);
  useEffect(() => {
    if (!kind) return;
    let current = true;
    const id = query.trim();
    void (
      kind === 'run'
        ? findRun(id)
        : findEvent(
            id,
            sources.map((s) => s.id),
          )
    ).then((item) => current && setById({ query, item }));
    return () => {
      current = false;
    };
  }, [kind, query, sources]);

  const found = byId?.query === query && byId.item ? [byId.item] : [];
  const items = [...found, ...paletteItems({ path, sources, components, workflows, webhooks }, query)];
  const selected = Math.min(active, items.length - 1);

  const choose = async (item: PaletteItem) => {
    onClose();
    if ('to' in item) return navigate(item.to);
    try {
      const done = await runCommand(item);
      toast(done.text, done.ok ? 'ok' : 'error');
      navigate(done.to);
    } catch (err) {
      toast(messageOf(err), 'error');
    }
  };

  const keys = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((selected + step + items.length) % Math.max(items.length, 1));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const item = items[selected];
      if (item) void choose(item);
    }
  };

  const searching = kind !== null && byId?.query !== query;
  return (
    <Modal labelledBy="palette-title" className="dialog wide palette" onClose={onClose}>
      <h2 id="palette-title">Go to or run</h2>
      <input
        type="text"
        role="combobox"
        aria-label="Search sources, actions, workflows, webhooks, run or event ids, and commands"
        aria-expanded="true"
        aria-controls="palette-list"
        aria-autocomplete="list"
        aria-activedescendant={items[selected] ? `palette-${selected}` : undefined}
        placeholder="Type a name, an id (inv_…, an event id) or a command"
        value={query}
        onChange={(e) => (setQuery(e.target.value), setActive(0))}
        onKeyDown={keys}
        data-autofocus
      />
      <div id="palette-list" role="listbox" aria-label="Matches" className="palette-list">
        {items.map((item, i) => (
          <div key={item.id} id={`palette-${i}`} role="option" aria-selected={i === selected} className={i === selected ? 'current' : undefined} onMouseDown={(e) => (e.preventDefault(), void choose(item))}>
            <span className="badge">{item.kind}</span> {item.label} <span className="muted">{item.detail}</span>
          </div>
        ))}
      </div>
      <p className="muted small-note" role="status">
        {searching ? `Looking up ${query.trim()}…` : items.length === 0 ? `Nothing matches "${query}".` : `${items.length} match${items.length === 1 ? '' : 'es'}: ↑/↓ to pick, Enter to go, Esc to close.`}
      </p>
    </Modal>
  );
}
