/** An array prop typed item by item (string[], integer[], boolean[]), with add and remove. */
export function ArrayInput({ id, itemType, value, onChange, disabled, label, describedBy }: { id: string; itemType: string; value: unknown; onChange(v: unknown): void; disabled: boolean; label: string; describedBy: string }) {
  const items = Array.isArray(value) ? value : [];
  const set = (i: number, v: unknown) => onChange(items.map((x, j) => (j === i ? v : x)));
  const blank = itemType === 'boolean' ? false : itemType === 'integer' ? 0 : '';
  return (
    <div className="array-input" id={id} role="group" aria-label={label} aria-describedby={describedBy}>
      {items.map((item, i) => (
        <div className="row" key={i}>
          {itemType === 'boolean' ? (
            <select aria-label={`${label} item ${i + 1}`} value={String(item)} disabled={disabled} onChange={(e) => set(i, e.target.value === 'true')}>
              <option value="true">true</option>
              <option value="false">false</option>
            </select>
          ) : (
            <input
              aria-label={`${label} item ${i + 1}`}
              type={itemType === 'integer' ? 'number' : 'text'}
              step={itemType === 'integer' ? 1 : undefined}
              value={String(item ?? '')}
              disabled={disabled}
              onChange={(e) => set(i, itemType === 'integer' ? (e.target.value === '' ? 0 : Math.trunc(Number(e.target.value))) : e.target.value)}
            />
          )}
          <button type="button" className="small" disabled={disabled} aria-label={`Remove ${label} item ${i + 1}`} onClick={() => onChange(items.filter((_, j) => j !== i))}>
            Remove
          </button>
        </div>
      ))}
      <button type="button" className="small" disabled={disabled} onClick={() => onChange([...items, blank])}>
        Add item
      </button>
    </div>
  );
}
