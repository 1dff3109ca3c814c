import { useState } from 'react';
import type { WorkflowRunView } from '../../../../runtime/contract/workflow-api';
import { JsonTree } from '../../ui/JsonTree';
import { InvocationDetail } from '../activity/InvocationDetail';
import { StepOutput } from './StepOutput';
import { duration } from './workflow';

/**
 * One run opened: the trigger event, then each step that ran with its exports, return value, logs,
 * duration and error, and the step's run record (the action's invocation) a click away.
 */
export function WorkflowRunDetails({ run, stepCount }: { run: WorkflowRunView; stepCount: number }) {
  const [record, setRecord] = useState<string | null>(null);
  return (
    <div className="run-details" data-testid="run-details">
      <section className="output-part">
        <h4>
          Trigger event <code className="muted">steps.trigger.event</code>
        </h4>
        <div className="json-box">
          <JsonTree value={run.event} />
        </div>
      </section>
      {run.steps.map((s, i) => {
        const status = s.error ? 'error' : s.exit ? 'exited' : 'success';
        return (
          <section key={`${s.name}:${i}`} className="run-step" aria-label={`Step ${s.name}`} data-step={s.name}>
            <div className="row">
              <h4>
                {i + 1}. {s.name}
              </h4>
              <span className={status === 'success' ? 'badge active' : status === 'error' ? 'badge failed' : 'badge status-pending'}>{status}</span>
              <span className="muted">{duration(s.duration_ms)}</span>
              <code className="muted">{s.component_id}</code>
              {s.invocation_id && (
                <button type="button" className="small" aria-expanded={record === s.invocation_id} aria-controls={`step-record-${s.invocation_id}`} onClick={() => setRecord(record === s.invocation_id ? null : s.invocation_id)}>
                  {record === s.invocation_id ? 'Hide record' : 'Run record'}
                </button>
              )}
            </div>
            <StepOutput output={s} headingLevel={5} />
            {s.invocation_id && record === s.invocation_id && (
              <div id={`step-record-${s.invocation_id}`} className="step-record">
                <InvocationDetail id={s.invocation_id} sourceId={null} headingLevel={4} />
              </div>
            )}
          </section>
        );
      })}
      {run.steps.length < stepCount && (
        <p className="muted">
          {stepCount - run.steps.length} later step{stepCount - run.steps.length === 1 ? '' : 's'} did not run ({run.status === 'exited' ? 'a step ended the run with $.flow.exit' : 'a step failed'}).
        </p>
      )}
    </div>
  );
}
