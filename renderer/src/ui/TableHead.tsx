/** A table's header row: the column names, then an unlabelled (for screen readers: "Actions") column of buttons. */
export function TableHead({ columns }: { columns: string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th key={c}>{c}</th>
        ))}
        <th>
          <span className="sr-only">Actions</span>
        </th>
      </tr>
    </thead>
  );
}
