import { useEffect, useMemo, useRef, useState } from 'react';
import type { LogLineView } from '../../../../runtime/contract/source-api';
import { clockTime } from '../../ui/format';
import { Link } from '../../ui/Link';
import { LiveBadge } from '../../ui/LiveBadge';
import { activityPath } from '../activity/invocations';
import { useLogs } from './log-store';

const LEVELS = ['debug', 'info', 'log', 'warn', 'error'];

interface Group {
  invocation: string | null;
  lines: LogLineView[];
}

/** Consecutive lines of one invocation form a group. */
function group(lines: LogLineView[]): Group[] {
  const groups: Group[] = [];
  for (const line of lines) {
    const last = groups[groups.length - 1];
    if (last && last.invocation === line.invocation_id) last.lines.push(line);
    else groups.push({ invocation: line.invocation_id, lines: [line] });
  }
  return groups;
}

const time = (ts: number) => clockTime(ts > 1e12 ? ts : ts * 1000, true);

/** A source's live logs: level filter, search, grouped by invocation, follow or pause. */
export function LogView({ sourceId }: { sourceId: string }) {
  const { lines, live, paused, held, error, open, close, setPaused, clear } = useLogs();
  const [query, setQuery] = useState('');
  const [hidden, setHidden] = useState<Set<string>>(new Set());
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    void open(sourceId);
    return () => close();
  }, [sourceId, open, close]);

  const levels = useMemo(() => [...new Set([...LEVELS, ...lines.map((l) => l.level)])], [lines]);
  const shown = useMemo(() => {
    const q = query.toLowerCase();
    return lines.filter((l) => !hidden.has(l.level) && (!q || l.message.toLowerCase().includes(q) || (l.invocation_id ?? '').includes(q)));
  }, [lines, hidden, query]);
  const groups = useMemo(() => group(shown), [shown]);

  // Following keeps the newest line in view.
  useEffect(() => {
    if (!paused && box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [groups, paused]);

  return (
    <section className="logs" aria-label="Logs">
      <div className="toolbar">
        <LiveBadge live={live} testId="logs-state" />
        <input type="search" aria-label="Search logs" placeholder="Search logs…" value={query} onChange={(e) => setQuery(e.target.value)} />
        <fieldset className="levels">
          <legend className="sr-only">Levels</legend>
          {levels.map((level) => (
            <label key={level} className={`lvl lvl-${level}`}>
              <input
                type="checkbox"
                checked={!hidden.has(level)}
                onChange={() => {
                  const next = new Set(hidden);
                  if (next.has(level)) next.delete(level);
                  else next.add(level);
                  setHidden(next);
                }}
              />
              {level}
            </label>
          ))}
        </fieldset>
        <button type="button" aria-pressed={paused} onClick={() => setPaused(!paused)}>
          {paused ? `Follow${held.length ? ` (${held.length} new)` : ''}` : 'Pause'}
        </button>
        <button type="button" onClick={clear}>
          Clear view
        </button>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="log-box" ref={box} tabIndex={0} aria-label="Log lines" role="log" aria-live={paused ? 'off' : 'polite'}>
        {groups.length === 0 && <p className="empty">No log lines yet. Lines written with console.log appear here as the source runs.</p>}
        {groups.map((g) => (
          <div className="log-group" key={g.lines[0]?.id}>
            <div className="log-group-head">
              {g.invocation ? (
                <>
                  run{' '}
                  <Link to={activityPath(sourceId, g.invocation)}>
                    <code>{g.invocation}</code>
                  </Link>
                </>
              ) : (
                'service'
              )}{' '}
              · {time(g.lines[0]?.ts ?? 0)} · {g.lines.length} line{g.lines.length === 1 ? '' : 's'}
            </div>
            {g.lines.map((l) => (
              <div key={l.id} className={`log-line lvl-${l.level}`} data-level={l.level}>
                <span className="log-time">{time(l.ts)}</span>
                <span className="log-level">{l.level}</span>
                <span className="log-msg">{l.message}</span>
              </div>
            ))}
          </div>
        ))}
      </div>
    </section>
  );
}
