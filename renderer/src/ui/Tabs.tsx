import { type KeyboardEvent, type ReactNode, useId, useRef, useState } from 'react';

/** One tab: its label and what its panel shows. */
export interface TabItem {
  id: string;
  label: string;
  panel: ReactNode;
}

/**
 * Tabs inside a screen (the WAI-ARIA tabs pattern): one tab in the Tab order, arrow keys, Home and
 * End move between tabs and show their panel at once. Screen-level views are links instead
 * (`nav.tabs`), so each has an address.
 */
export function Tabs({ label, items }: { label: string; items: TabItem[] }) {
  const [chosen, setChosen] = useState(items[0]?.id ?? '');
  const base = useId();
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const current = items.find((t) => t.id === chosen) ?? items[0];
  if (!current) return null;

  const move = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = items.findIndex((t) => t.id === current.id);
    const next = e.key === 'ArrowRight' ? at + 1 : e.key === 'ArrowLeft' ? at - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? items.length - 1 : null;
    if (next === null) return;
    e.preventDefault();
    const target = items[(next + items.length) % items.length] as TabItem;
    setChosen(target.id);
    buttons.current.get(target.id)?.focus();
  };

  return (
    <div className="tabbed">
      <div role="tablist" aria-label={label} className="tabs small-tabs" onKeyDown={move}>
        {items.map((t) => (
          <button
            key={t.id}
            ref={(el) => void (el ? buttons.current.set(t.id, el) : buttons.current.delete(t.id))}
            type="button"
            role="tab"
            id={`${base}-tab-${t.id}`}
            aria-selected={t.id === current.id}
            aria-controls={t.id === current.id ? `${base}-panel` : undefined}
            tabIndex={t.id === current.id ? 0 : -1}
            onClick={() => setChosen(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${current.id}`} className="tab-panel">
        {current.panel}
      </div>
    </div>
  );
}
