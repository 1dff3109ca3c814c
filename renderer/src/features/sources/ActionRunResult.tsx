import { useEffect, useRef } from 'react';
import type { ActionRunView } from '../../../../runtime/contract/action-api';
import type { StepRunView } from '../../../../runtime/contract/workflow-api';
import { RunRecords } from '../activity/RunRecords';
import { StepOutput } from '../workflows/StepOutput';

/**
 * The result of an action test run (`POST /v1/actions/run`) or of one workflow step's test
 * (`POST /v1/workflows/{id}/steps/{step}/test`), brought into view when it arrives, with the
 * action's recorded runs. `idPrefix` keeps ids apart when several show on one page.
 */
export function ActionRunResult({ result, title = 'Test run', idPrefix = 'run-result', onClear }: { result: ActionRunView | StepRunView; title?: string; idPrefix?: string; onClear(): void }) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView({ block: 'nearest' });
  }, [result]);
  const status = result.error ? 'error' : result.exit ? 'exited' : 'success';
  const output = 'os' in result ? { ...result, logs: result.os } : result;
  return (
    <section ref={ref} className="card run-result" aria-labelledby={`${idPrefix}-h`} data-testid="action-result">
      <div className="row">
        <h3 id={`${idPrefix}-h`}>{title}</h3>
        <span className={status === 'success' ? 'badge active' : status === 'error' ? 'badge failed' : 'badge status-pending'} data-testid="run-status">
          {status}
        </span>
        {'id' in result && <code className="muted">{result.id}</code>}
        <span className="grow" />
        <button type="button" className="small" onClick={onClear}>
          Clear
        </button>
      </div>
      <StepOutput output={output} />
      {result.invocation_id && <RunRecords invocationId={result.invocation_id} />}
    </section>
  );
}
