import type { LocatedProblem } from './problems';

/** The service's validation problems as a list; a located one jumps to its line in the editor. `stale`: the code changed since (said, and not shown as an error). */
export function ProblemList({ title, problems, onReveal, warnings = false, stale = false }: { title: string; problems: LocatedProblem[]; onReveal(line: number): void; warnings?: boolean; stale?: boolean }) {
  // Warnings, and problems of code since edited, do not stop anything: announced politely, not as an alert.
  return (
    <div className={warnings ? 'problems warnings' : stale ? 'problems stale' : 'problems'} role={warnings || stale ? 'status' : 'alert'} aria-label={warnings ? 'Warnings' : stale ? 'Problems of the code before your edits' : 'Problems'}>
      <strong>{title}</strong>
      {stale && (
        <p className="small-note muted" data-testid="problems-stale">
          About the code before your latest edits: save, or Check code, to see whether they are fixed.
        </p>
      )}
      {problems.length > 0 && (
        <ul>
          {problems.map((p, i) => (
            <li key={i}>
              {p.line !== null ? (
                <button type="button" className="link" onClick={() => onReveal(p.line as number)}>
                  {p.path || `line ${p.line}`}
                </button>
              ) : (
                p.path && <code>{p.path}</code>
              )}{' '}
              {p.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
