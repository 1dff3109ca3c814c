import { useRef, useState } from 'react';

/** A path a workflow value may reference (`steps.parse.$return_value.id`), with a value it had. */
export interface Suggestion {
  path: string;
  sample: unknown;
}

/** The open `{{` before the cursor (not closed before it) and what was typed after it, or null. */
export function openReference(text: string, cursor: number): { start: number; query: string } | null {
  const before = text.slice(0, cursor);
  const start = before.lastIndexOf('{{');
  if (start < 0 || before.indexOf('}}', start) >= 0) return null;
  const query = before.slice(start + 2).trim();
  return /^[\w$.[\]"' -]*$/.test(query) ? { start, query } : null;
}

/** `text` with the reference opened at `start` (up to `cursor`) completed as `{{path}}`, and the cursor after it. */
export function insertReference(text: string, start: number, cursor: number, path: string): { text: string; cursor: number } {
  // A `}}` already right after the cursor closes the reference; otherwise the insertion closes it.
  const after = text.slice(cursor).replace(/^\s*\}\}/, '');
  const inserted = `{{${path}}}`;
  return { text: text.slice(0, start) + inserted + after, cursor: start + inserted.length };
}

const sampleText = (v: unknown) => {
  const s = typeof v === 'string' ? JSON.stringify(v) : v === undefined ? '' : JSON.stringify(v);
  return s.length > 40 ? `${s.slice(0, 39)}…` : s;
};

/**
 * A text input where typing `{{` anywhere opens the references it may use at that point, each with
 * a sample value: arrows move, Enter or Tab inserts (closing the `}}`), Escape closes.
 */
export function ExpressionInput({ id, value, suggestions, describedBy, disabled, placeholder, onChange }: { id: string; value: string; suggestions: Suggestion[]; describedBy?: string; disabled?: boolean; placeholder?: string; onChange(text: string): void }) {
  const ref = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const listId = `${id}-suggestions`;
  const matches = open ? suggestions.filter((s) => s.path.toLowerCase().includes(open.query.toLowerCase())).slice(0, 50) : [];
  const shown = open !== null && matches.length > 0;

  const look = (text: string, cursor: number | null) => {
    const found = cursor === null ? null : openReference(text, cursor);
    setOpen(found);
    if (found?.query !== open?.query) setActive(0);
  };
  const insert = (s: Suggestion) => {
    const input = ref.current;
    if (!open || !input) return;
    const next = insertReference(value, open.start, input.selectionStart ?? value.length, s.path);
    onChange(next.text);
    setOpen(null);
    requestAnimationFrame(() => input.setSelectionRange(next.cursor, next.cursor));
  };

  return (
    <div className="expression-input">
      <input
        ref={ref}
        id={id}
        className="mono grow"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={shown ? `${listId}-${active}` : undefined}
        aria-describedby={describedBy}
        autoComplete="off"
        spellCheck={false}
        disabled={disabled}
        placeholder={placeholder}
        value={value}
        onChange={(e) => {
          onChange(e.target.value);
          look(e.target.value, e.target.selectionStart);
        }}
        onClick={(e) => look(value, e.currentTarget.selectionStart)}
        onBlur={() => setOpen(null)}
        onKeyDown={(e) => {
          if (!shown) return;
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length);
          } else if (e.key === 'Enter' || e.key === 'Tab') {
            e.preventDefault();
            const s = matches[active];
            if (s) insert(s);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            setOpen(null);
          }
        }}
      />
      <div id={listId} role="listbox" aria-label="References" className="suggestions" hidden={!shown}>
        {shown &&
          matches.map((s, i) => (
            <div
              key={s.path}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'active' : undefined}
              onMouseDown={(e) => {
                e.preventDefault();
                insert(s);
              }}
            >
              <code>{s.path}</code> <span className="muted sample">{sampleText(s.sample)}</span>
            </div>
          ))}
      </div>
    </div>
  );
}
