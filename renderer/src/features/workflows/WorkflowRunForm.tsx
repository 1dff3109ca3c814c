import { type FormEvent, useState } from 'react';
import type { WorkflowRunView } from '../../../../runtime/contract/workflow-api';
import { messageOf } from '../../api/client';
import { useApp } from '../../app/store';
import { runWorkflow } from './workflow-data';

/** Runs a workflow by hand (`POST /v1/workflows/{id}/run`) with an event typed as JSON, or the service's default event. */
export function WorkflowRunForm({ workflowId, triggerType, onRan }: { workflowId: string; triggerType: string; onRan(run: WorkflowRunView): void }) {
  const toast = useApp((s) => s.toast);
  const [text, setText] = useState(triggerType === 'http' ? '{\n  "method": "POST",\n  "path": "/",\n  "query": {},\n  "headers": {},\n  "body": {}\n}' : '');
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    let event: unknown;
    if (text.trim() !== '') {
      try {
        event = JSON.parse(text);
      } catch (err) {
        setError(`The event is not JSON: ${messageOf(err)}`);
        return;
      }
    }
    setError(null);
    setRunning(true);
    try {
      const run = await runWorkflow(workflowId, event);
      toast(`Run ${run.status}: ${run.steps.length} step${run.steps.length === 1 ? '' : 's'} ran`, run.status === 'error' ? 'error' : 'ok');
      onRan(run);
    } catch (err) {
      toast(messageOf(err), 'error');
    } finally {
      setRunning(false);
    }
  };

  return (
    <form className="card form" onSubmit={(e) => void submit(e)} aria-labelledby="wf-run-h">
      <h2 id="wf-run-h">Run by hand</h2>
      <label htmlFor="wf-run-event">
        Trigger event (JSON){' '}
        <span className="muted">
          — <code>steps.trigger.event</code>; empty sends the service&apos;s default (a timestamp, or a timer event)
        </span>
      </label>
      <textarea id="wf-run-event" className="mono" rows={5} value={text} aria-invalid={error ? true : undefined} aria-describedby={error ? 'wf-run-error' : undefined} onChange={(e) => setText(e.target.value)} />
      {error && (
        <p id="wf-run-error" className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="row end">
        <button type="submit" className="primary" disabled={running}>
          {running ? 'Running…' : 'Run workflow'}
        </button>
      </div>
    </form>
  );
}
