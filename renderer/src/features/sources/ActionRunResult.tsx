import { useEffect, useRef } from 'react';
import type { ActionRunView } from '../../../../runtime/contract/action-api';
import { RunRecords } from '../activity/RunRecords';
import { StepOutput } from '../workflows/StepOutput';

/** The result of an action test run (`POST /v1/actions/run`), brought into view when it arrives, with the action's recorded runs. */
export function ActionRunResult({ result, onClear }: { result: ActionRunView; onClear(): void }) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView({ block: 'nearest' });
  }, [result]);
  const status = result.error ? 'error' : result.exit ? 'exited' : 'success';
  return (
    <section ref={ref} className="card run-result" aria-labelledby="run-result-h" data-testid="action-result">
      <div className="row">
        <h3 id="run-result-h">Test run</h3>
        <span className={status === 'success' ? 'badge active' : status === 'error' ? 'badge failed' : 'badge status-pending'} data-testid="run-status">
          {status}
        </span>
        <code className="muted">{result.id}</code>
        <span className="grow" />
        <button type="button" className="small" onClick={onClear}>
          Clear
        </button>
      </div>
      <StepOutput output={{ ...result, logs: result.os }} />
      <RunRecords invocationId={result.invocation_id} />
    </section>
  );
}
