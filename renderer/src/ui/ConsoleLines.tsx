import type { ConsoleLine } from '../../../runtime/contract/action-api';
import { clockTime } from './format';

/** The console lines of one run (with their clock time when they have one), or a note that nothing was logged. */
export function ConsoleLines({ lines, testId }: { lines: Array<ConsoleLine & { ts?: number }>; testId: string }) {
  if (lines.length === 0) return <p className="muted">Nothing was logged.</p>;
  return (
    <pre className="console" data-testid={testId}>
      {lines.map((l, i) => (
        <div key={i} className={`lvl-${l.level}`}>
          {l.ts !== undefined && <span className="log-time">{clockTime(l.ts, true)} </span>}
          <span className="log-level">{l.level.padEnd(5)}</span> {l.message}
        </div>
      ))}
    </pre>
  );
}
