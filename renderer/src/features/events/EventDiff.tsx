/** A line diff (longest common subsequence) of two events' pretty JSON. */
export function EventDiff({ left, right, leftLabel, rightLabel }: { left: unknown; right: unknown; leftLabel: string; rightLabel: string }) {
  const a = JSON.stringify(left, null, 2).split('\n');
  const b = JSON.stringify(right, null, 2).split('\n');
  const rows = diffLines(a, b);
  const changed = rows.filter((r) => r.kind !== 'same').length;
  return (
    <div className="diff" data-testid="event-diff">
      <p className="muted">
        <span className="del-mark">− {leftLabel}</span> · <span className="add-mark">+ {rightLabel}</span> · {changed === 0 ? 'identical' : `${changed} changed line${changed === 1 ? '' : 's'}`}
      </p>
      <pre>
        {rows.map((r, i) => (
          <div key={i} className={`diff-${r.kind}`}>
            {r.kind === 'add' ? '+ ' : r.kind === 'del' ? '− ' : '  '}
            {r.text}
          </div>
        ))}
      </pre>
    </div>
  );
}

type Row = { kind: 'same' | 'add' | 'del'; text: string };

function diffLines(a: string[], b: string[]): Row[] {
  // Large events: fall back to a positional comparison rather than an O(n·m) table.
  if (a.length * b.length > 4_000_000) {
    const rows: Row[] = [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (a[i] === b[i]) rows.push({ kind: 'same', text: a[i] as string });
      else {
        if (a[i] !== undefined) rows.push({ kind: 'del', text: a[i] as string });
        if (b[i] !== undefined) rows.push({ kind: 'add', text: b[i] as string });
      }
    }
    return rows;
  }
  const n = a.length;
  const m = b.length;
  const table: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  // Every cell read is inside the table; `?? 0` only satisfies the index type.
  const cell = (r: number, c: number) => table[r]?.[c] ?? 0;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      const row = table[i] as Uint32Array;
      row[j] = a[i] === b[j] ? cell(i + 1, j + 1) + 1 : Math.max(cell(i + 1, j), cell(i, j + 1));
    }
  }
  const rows: Row[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      rows.push({ kind: 'same', text: a[i] as string });
      i++;
      j++;
    } else if (cell(i + 1, j) >= cell(i, j + 1)) rows.push({ kind: 'del', text: a[i++] as string });
    else rows.push({ kind: 'add', text: b[j++] as string });
  }
  while (i < n) rows.push({ kind: 'del', text: a[i++] as string });
  while (j < m) rows.push({ kind: 'add', text: b[j++] as string });
  return rows;
}
