import { useState } from 'react';

/** A collapsible JSON tree (disclosure buttons, keyboard operable); long arrays and objects start closed. */
export function JsonTree({ value, name, depth = 0 }: { value: unknown; name?: string; depth?: number }) {
  const isObject = value !== null && typeof value === 'object';
  const entries = isObject ? (Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value as Record<string, unknown>)) : [];
  const [open, setOpen] = useState(depth < 2 && entries.length <= 50);
  const label = name !== undefined ? <span className="jkey">{name}: </span> : null;
  if (!isObject) {
    return (
      <div className="jrow">
        {label}
        <span className={`jval j${value === null ? 'null' : typeof value}`}>{JSON.stringify(value)}</span>
      </div>
    );
  }
  const brackets = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return (
    <div className="jrow">
      <button type="button" className="jtoggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? '▾' : '▸'} {label}
        {brackets[0]}
        {!open && `… ${entries.length} ${Array.isArray(value) ? 'items' : 'keys'}${brackets[1]}`}
      </button>
      {open && (
        <div className="jchildren">
          {entries.map(([k, v]) => (
            <JsonTree key={k} name={k} value={v} depth={depth + 1} />
          ))}
          <div>{brackets[1]}</div>
        </div>
      )}
    </div>
  );
}
