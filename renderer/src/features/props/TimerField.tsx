import type { ConfigurableProp } from '../../../../runtime/contract/component-shape';
import type { SourceView } from '../../../../runtime/contract/source-api';
import { when } from '../../ui/format';

type Schedule = { intervalSeconds?: number; cron?: string; timezone?: string };

const describe = (s: Schedule | undefined) => (!s ? 'none' : s.cron ? `cron ${s.cron}${s.timezone ? ` (${s.timezone})` : ''}` : s.intervalSeconds !== undefined ? `every ${s.intervalSeconds} s` : JSON.stringify(s));

/** A timer prop: its schedule (deployed: the next run), editable as an interval or a cron expression unless it is `static` (fixed). */
export function TimerField({ prop, id, source, value, onChange, disabled: disabledProp }: { prop: ConfigurableProp; id: string; source: SourceView | null; value: unknown; onChange(v: unknown): void; disabled: boolean }) {
  const timer = source?.timers[prop.name];
  const fixed = prop.static as Schedule | undefined;
  const disabled = disabledProp || fixed !== undefined;
  const current = fixed ?? (value as Schedule | undefined) ?? (timer?.schedule as Schedule | undefined) ?? (prop.default as Schedule | undefined);
  const mode = current?.cron !== undefined ? 'cron' : 'interval';
  return (
    <div className="timer" data-testid={`timer-${prop.name}`}>
      <p>
        Schedule: <strong>{describe(current)}</strong>
        {source && (
          <>
            {' · '}next run: <strong>{timer?.next_run_at ? when(timer.next_run_at) : source.active ? '—' : 'inactive'}</strong>
          </>
        )}
      </p>
      <div className="row">
        <label className="sr-only" htmlFor={`${id}-mode`}>
          Schedule kind
        </label>
        <select id={`${id}-mode`} value={mode} disabled={disabled} onChange={(e) => onChange(e.target.value === 'cron' ? { cron: '*/5 * * * *' } : { intervalSeconds: 60 })}>
          <option value="interval">Interval</option>
          <option value="cron">Cron</option>
        </select>
        {mode === 'cron' ? (
          <input id={id} className="mono" aria-label="Cron expression" value={current?.cron ?? ''} disabled={disabled} onChange={(e) => onChange({ cron: e.target.value })} />
        ) : (
          <input id={id} type="number" min={1} aria-label="Interval in seconds" value={current?.intervalSeconds ?? ''} disabled={disabled} onChange={(e) => onChange({ intervalSeconds: Number(e.target.value) })} />
        )}
      </div>
    </div>
  );
}
