import type { LocatedProblem } from './problems';

/** The service's validation problems as a list; a located one jumps to its line in the editor. */
export function ProblemList({ title, problems, onReveal, warnings = false }: { title: string; problems: LocatedProblem[]; onReveal(line: number): void; warnings?: boolean }) {
  // Warnings do not stop anything: announced politely, not as an alert.
  return (
    <div className={warnings ? 'problems warnings' : 'problems'} role={warnings ? 'status' : 'alert'} aria-label={warnings ? 'Warnings' : 'Problems'}>
      <strong>{title}</strong>
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
