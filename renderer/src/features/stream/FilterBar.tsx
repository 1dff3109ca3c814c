import { Fragment, useId } from 'react';
import { isoOfLocal, localOfIso, RANGES, termValue, withTerm } from './filter-text';

const STATUSES = ['ok', 'error', 'timeout', 'running'] as const;
const KINDS = ['run', 'event'] as const;

/** The filter language in brief (docs/api.md has it in full). */
const CHEATSHEET: Array<[string, string]> = [
  ['status:error', 'ok, error, timeout, running'],
  ['kind:event', 'run or event'],
  ['source:orders', 'also action:, workflow:, target: (name or id)'],
  ['path:/orders method:POST code:201', 'the request and its answer'],
  ['header:x-shopify-topic=orders/create', 'a request header'],
  ['body.amount>50', 'a JSON field: : = != > >= < <='],
  ['delivery:failed trigger:timer', 'delivery state, what started a run'],
  ['since:15m until:2026-11-28T09:00:00Z', 'a time range (15m, 2h, or ISO time)'],
  ['-status:ok refund', 'a leading - negates; bare words search the text'],
];

/**
 * The stream's filter: the text box (`text`, typed; the service's message under it when it does
 * not parse), status and kind chips, and the time range; chips and range rewrite their own terms
 * of `filter` through `apply`.
 */
export function FilterBar({ text, onType, filter, apply, problem }: { text: string; onType(text: string): void; filter: string; apply(filter: string): void; problem: string | null }) {
  const id = useId();
  const since = termValue(filter, 'since');
  const until = termValue(filter, 'until');
  const preset = RANGES.find((r) => r.value === since && !until);
  const range = preset ? preset.value : since || until ? 'custom' : '';
  const chip = (key: string, value: string) => {
    const on = termValue(filter, key) === value;
    return (
      <button key={`${key}:${value}`} type="button" className="small chip" aria-pressed={on} onClick={() => apply(withTerm(filter, key, on ? null : value))}>
        {value}
      </button>
    );
  };
  return (
    <div className="stream-filter">
      <div className="toolbar">
        <label htmlFor={`${id}-q`} className="sr-only">
          Filter
        </label>
        <input
          id={`${id}-q`}
          type="search"
          className="mono grow"
          placeholder="status:error source:orders body.amount>50 since:1h"
          value={text}
          onChange={(e) => onType(e.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          spellCheck={false}
        />
        <label htmlFor={`${id}-range`} className="sr-only">
          Time range
        </label>
        <select id={`${id}-range`} value={range} onChange={(e) => apply(withTerm(withTerm(filter, 'until', null), 'since', e.target.value === 'custom' ? new Date(Date.now() - 3_600_000).toISOString() : e.target.value || null))}>
          <option value="">Any time</option>
          {RANGES.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
          <option value="custom">Custom…</option>
        </select>
        {range === 'custom' && (
          <>
            <label>
              From <input type="datetime-local" step={1} value={localOfIso(since)} onChange={(e) => apply(withTerm(filter, 'since', isoOfLocal(e.target.value)))} />
            </label>
            <label>
              To <input type="datetime-local" step={1} value={localOfIso(until)} onChange={(e) => apply(withTerm(filter, 'until', isoOfLocal(e.target.value)))} />
            </label>
          </>
        )}
      </div>
      {problem && (
        <p className="error" role="alert" id={`${id}-problem`} data-testid="filter-problem">
          {problem}
        </p>
      )}
      <div className="toolbar">
        <fieldset className="chips">
          <legend>Status</legend>
          {STATUSES.map((s) => chip('status', s))}
        </fieldset>
        <fieldset className="chips">
          <legend>Kind</legend>
          {KINDS.map((k) => chip('kind', k))}
        </fieldset>
        <details className="cheatsheet">
          <summary>Filter language</summary>
          <dl className="meta-grid">
            {CHEATSHEET.map(([example, means]) => (
              <Fragment key={example}>
                <dt>
                  <code>{example}</code>
                </dt>
                <dd>{means}</dd>
              </Fragment>
            ))}
          </dl>
        </details>
      </div>
    </div>
  );
}
