import { useEffect, useState } from 'react';
import type { WorkflowRunView } from '../../../../runtime/contract/workflow-api';
import { messageOf } from '../../api/client';
import { useApp } from '../../app/store';
import { when } from '../../ui/format';
import { WorkflowRunDetails } from './WorkflowRunDetails';
import { duration } from './workflow';
import { replayRun, useWorkflowRuns } from './workflow-data';

const statusClass = (s: WorkflowRunView['status']) => (s === 'success' ? 'badge active' : s === 'error' ? 'badge failed' : 'badge status-pending');

/**
 * A workflow's kept runs, newest first (`GET /v1/workflows/{id}/runs`), refreshed every few seconds
 * so runs from the endpoint, a timer or a source appear by themselves. Each opens to its steps;
 * "Replay" runs the steps again with that run's trigger event.
 */
export function WorkflowRuns({ workflowId, stepCount, refresh, openRun }: { workflowId: string; stepCount: number; refresh: number; openRun: string | null }) {
  const toast = useApp((s) => s.toast);
  const [open, setOpen] = useState<Set<string>>(new Set());
  const [replaying, setReplaying] = useState<string | null>(null);
  const { runs, total, error, reload: load } = useWorkflowRuns(workflowId, refresh);

  useEffect(() => {
    if (openRun) setOpen((o) => new Set(o).add(openRun));
  }, [openRun]);

  const toggle = (id: string) =>
    setOpen((o) => {
      const next = new Set(o);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const replay = async (run: WorkflowRunView) => {
    setReplaying(run.id);
    try {
      const again = await replayRun(workflowId, run.id);
      toast(`Replayed: ${again.status}`, again.status === 'error' ? 'error' : 'ok');
      setOpen((o) => new Set(o).add(again.id));
      await load();
    } catch (err) {
      toast(messageOf(err), 'error');
    } finally {
      setReplaying(null);
    }
  };

  return (
    <section className="card" aria-labelledby="runs-h">
      <div className="row">
        <h2 id="runs-h">Runs</h2>
        <span className="muted">{runs ? (runs.length < total ? `latest ${runs.length} of ${total} kept` : `${total} kept`) : ''}</span>
        <span className="grow" />
        <button type="button" className="small" onClick={() => void load()}>
          Refresh
        </button>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {!runs ? (
        <p className="empty">Loading…</p>
      ) : runs.length === 0 ? (
        <p className="empty">No runs yet. Trigger the workflow, or run it by hand above.</p>
      ) : (
        <ol className="runs" aria-label="Workflow runs">
          {runs.map((r) => {
            const expanded = open.has(r.id);
            return (
              <li key={r.id} className="run" data-run-id={r.id} data-status={r.status}>
                <div className="row wrap run-head">
                  <span className={statusClass(r.status)}>{r.status}</span>
                  <time dateTime={new Date(r.started_at_ms).toISOString()}>{when(r.started_at_ms)}</time>
                  <span className="muted">{duration(r.duration_ms)}</span>
                  <span className="run-steps" aria-label="Steps">
                    {r.steps.map((s) => (
                      <span key={s.name} className={s.error ? 'step-chip failed' : s.exit ? 'step-chip exited' : 'step-chip'}>
                        {s.name}
                      </span>
                    ))}
                  </span>
                  {r.replay_of && <span className="muted">replay of {r.replay_of}</span>}
                  <span className="grow" />
                  <button type="button" className="small" aria-expanded={expanded} aria-controls={`run-${r.id}`} onClick={() => toggle(r.id)}>
                    {expanded ? 'Hide details' : 'Details'}
                  </button>
                  <button type="button" className="small" disabled={replaying !== null} onClick={() => void replay(r)}>
                    {replaying === r.id ? 'Replaying…' : 'Replay'}
                  </button>
                </div>
                {expanded && (
                  <div id={`run-${r.id}`}>
                    <WorkflowRunDetails run={r} stepCount={stepCount} />
                  </div>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
