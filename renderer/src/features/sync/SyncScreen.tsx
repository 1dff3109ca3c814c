import { useCallback, useEffect, useRef, useState } from 'react';
import type { PlanItem, SyncJobView, SyncPlan, SyncRequest } from '../../../../runtime/contract/sync-api';
import { messageOf } from '../../api/client';
import { useApp } from '../../app/store';
import { Link } from '../../ui/Link';
import { isLoopbackUrl } from '../../ui/loopback';
import { applySync, planSync, useRemotes } from './sync-data';

const ACTION_TEXT: Record<PlanItem['action'], string> = { create: 'create', update: 'update', replace: 'replace', delete: 'delete', conflict: 'conflict', skip: 'skip', unsupported: 'not supported' };

/** A unified diff, coloured line by line. */
function Diff({ text, label }: { text: string; label: string }) {
  // Focusable, so the keyboard scrolls a long diff (axe: scrollable-region-focusable).
  return (
    <div className="diff" data-testid="plan-diff" tabIndex={0} role="region" aria-label={`Changes to ${label}`}>
      <pre>
        {text.split('\n').map((line, i) => (
          <div key={i} className={line.startsWith('+++') || line.startsWith('---') ? 'diff-head' : line.startsWith('+') ? 'diff-add' : line.startsWith('-') ? 'diff-del' : line.startsWith('@@') ? 'diff-hunk' : 'diff-same'}>
            {line || ' '}
          </div>
        ))}
      </pre>
    </div>
  );
}

/** One item of a plan: what happens, why, what to enter there, and the diff. */
function PlanRow({ item, open, loopback }: { item: PlanItem; open: boolean; loopback: string | null }) {
  return (
    <li className={`plan-item action-${item.action}`} data-testid="plan-item">
      <details open={open}>
        <summary>
          <span className={`badge action-${item.action}`}>{ACTION_TEXT[item.action]}</span> <strong>{item.label}</strong> <code className="muted">{item.local_id && item.remote_id ? `${item.local_id} ↔ ${item.remote_id}` : (item.local_id ?? item.remote_id)}</code>
        </summary>
        <p>{item.reason}</p>
        {loopback && (
          <p className="warn-text" data-testid="loopback-warning">
            Its URL <code>{loopback}</code> is this machine&apos;s: on the remote it names the remote&apos;s own machine, so its deliveries will not reach you.
          </p>
        )}
        {item.secrets.length > 0 && (
          <p className="warn-text">
            To enter there: <strong>{item.secrets.join(', ')}</strong>
          </p>
        )}
        {item.notes.map((n, i) => (
          <p key={i} className="muted">
            {n}
          </p>
        ))}
        {item.diff && <Diff text={item.diff} label={item.label} />}
      </details>
    </li>
  );
}

/**
 * Sync: choose a remote instance and a direction, see the plan as a diff per resource (conflicts
 * and what cannot be synced included), and apply it with progress (docs/sync.md).
 */
export function SyncScreen() {
  const { remotes, error: remotesError } = useRemotes();
  const [request, setRequest] = useState<SyncRequest>({ remote: '', direction: 'push', with_secrets: false, with_data: false, force: false });
  const [plan, setPlan] = useState<SyncPlan | null>(null);
  const [planning, setPlanning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirmDeletions, setConfirmDeletions] = useState(false);
  const [confirmLoopback, setConfirmLoopback] = useState(false);
  const { webhooks, loadWebhooks } = useApp();
  useEffect(() => {
    void loadWebhooks();
  }, [loadWebhooks]);
  const [job, setJob] = useState<SyncJobView | null>(null);
  const stopFollowing = useRef<(() => void) | null>(null);

  useEffect(() => {
    const first = remotes?.[0];
    if (first) setRequest((q) => (q.remote ? q : { ...q, remote: first.name }));
  }, [remotes]);
  useEffect(() => {
    if (remotesError) setError(remotesError);
  }, [remotesError]);
  useEffect(() => () => stopFollowing.current?.(), []);

  const remote = remotes?.find((r) => r.name === request.remote);
  const change = (patch: Partial<SyncRequest>) => {
    setRequest((q) => ({ ...q, ...patch }));
    setPlan(null);
    setJob(null);
    setConfirmDeletions(false);
    setConfirmLoopback(false);
  };

  const makePlan = useCallback(async () => {
    setPlanning(true);
    setError(null);
    setJob(null);
    try {
      setPlan(await planSync(request));
      setConfirmDeletions(false);
    } catch (err) {
      setPlan(null);
      setError(messageOf(err));
    } finally {
      setPlanning(false);
    }
  }, [request]);

  const apply = async () => {
    if (!plan) return;
    setError(null);
    try {
      stopFollowing.current?.();
      stopFollowing.current = await applySync({ ...request, plan_id: plan.plan_id, confirm_deletions: confirmDeletions }, setJob, (err) => setError(messageOf(err)));
    } catch (err) {
      setError(messageOf(err));
    }
  };

  const s = plan?.summary;
  /** A webhook pushed from here to another machine with a URL that means "this machine". */
  const loopbackUrlOf = (item: PlanItem): string | null => {
    if (plan?.direction !== 'push' || item.kind !== 'webhook' || !['create', 'update', 'replace'].includes(item.action) || isLoopbackUrl(plan.remote.url)) return null;
    const url = webhooks.find((w) => w.id === item.local_id)?.url;
    return url && isLoopbackUrl(url) ? url : null;
  };
  const loopbackItems = plan ? plan.items.filter((i) => loopbackUrlOf(i) !== null) : [];
  const changes = s ? s.create + s.update + s.replace + s.delete : 0;
  const finished = job && job.status !== 'running';
  const doneCount = job?.events.filter((e) => e.status === 'done').length ?? 0;
  const where = request.direction === 'push' ? `"${request.remote}"` : 'this instance';

  return (
    <div className="settings sync-screen">
      <header className="page-head">
        <h1 tabIndex={-1}>Sync</h1>
      </header>
      {remotes !== null && remotes.length === 0 ? (
        <section className="card">
          <p className="empty">
            No remote instances yet. Add one in <Link to="/settings">Settings → Remote instances</Link> (or with <code>spout login -p NAME</code>).
          </p>
        </section>
      ) : (
        <section className="card" aria-labelledby="sync-choose-h">
          <h2 id="sync-choose-h">What to sync</h2>
          <div className="row wrap">
            <label htmlFor="sync-remote">Remote</label>
            <select id="sync-remote" value={request.remote} onChange={(e) => change({ remote: e.target.value })} disabled={!remotes}>
              {(remotes ?? []).map((r) => (
                <option key={r.name} value={r.name}>
                  {r.name} ({r.kind === 'pipedream' ? 'Pipedream' : r.url})
                </option>
              ))}
            </select>
            <fieldset className="row">
              <legend className="sr-only">Direction</legend>
              <label>
                <input type="radio" name="sync-direction" checked={request.direction === 'push'} onChange={() => change({ direction: 'push' })} /> Push: this instance → remote
              </label>
              <label>
                <input type="radio" name="sync-direction" checked={request.direction === 'pull'} disabled={remote?.kind === 'pipedream'} onChange={() => change({ direction: 'pull' })} /> Pull: remote → this instance
              </label>
            </fieldset>
          </div>
          <div className="row wrap">
            <label>
              <input type="checkbox" checked={request.with_secrets} onChange={(e) => change({ with_secrets: e.target.checked })} /> Send secrets (secret props and account credentials, in clear, to {request.direction === 'push' ? 'the remote' : 'this instance'})
            </label>
            <label>
              <input type="checkbox" checked={request.with_data} onChange={(e) => change({ with_data: e.target.checked })} /> Include data store records
            </label>
            <label>
              <input type="checkbox" checked={request.force} onChange={(e) => change({ force: e.target.checked })} /> Overwrite changes made on the other side (force)
            </label>
          </div>
          <div className="row end">
            <button type="button" className="primary" disabled={!request.remote || planning} onClick={() => void makePlan()}>
              {planning ? 'Planning…' : plan ? 'Plan again' : 'Plan'}
            </button>
          </div>
        </section>
      )}
      {error && (
        <p className="error banner" role="alert">
          {error}
        </p>
      )}
      {plan && s && (
        <section className="card" aria-labelledby="plan-h" data-testid="sync-plan">
          <h2 id="plan-h">
            Plan: {plan.direction} {plan.direction === 'push' ? 'to' : 'from'} “{plan.remote.name}”
          </h2>
          <p data-testid="plan-summary">
            {s.create} to create, {s.update} to update{s.replace ? `, ${s.replace} to replace` : ''}, {s.delete} to delete{s.conflict ? `, ${s.conflict} conflict${s.conflict > 1 ? 's' : ''}` : ''}
            {s.skip ? `, ${s.skip} skipped` : ''}
            {s.unsupported ? `, ${s.unsupported} not supported there` : ''}; {s.unchanged} unchanged. {plan.last_sync_at ? `Last synced ${new Date(plan.last_sync_at * 1000).toLocaleString()}.` : 'Never synced before.'}
          </p>
          {plan.items.length === 0 ? (
            <p className="ok-text" data-testid="in-sync">
              Nothing to do: “{plan.remote.name}” and this instance are in sync.
            </p>
          ) : (
            <ul className="plain plan-items">
              {plan.items.map((item) => (
                <PlanRow key={`${item.kind}:${item.local_id ?? item.remote_id}:${item.action}`} item={item} open={plan.items.length <= 8 || item.action === 'conflict' || item.action === 'update'} loopback={loopbackUrlOf(item)} />
              ))}
            </ul>
          )}
          {s.conflict > 0 && (
            <p className="error" role="alert">
              {s.conflict} conflict{s.conflict > 1 ? 's' : ''}: nothing can be applied until {plan.direction === 'push' ? 'you pull the other side’s changes' : 'you push this instance’s changes'}, or choose to overwrite them (force).
            </p>
          )}
          {s.delete > 0 && (
            <label className="row">
              <input type="checkbox" checked={confirmDeletions} onChange={(e) => setConfirmDeletions(e.target.checked)} /> Delete the {s.delete} resource{s.delete > 1 ? 's' : ''} listed on {where}
            </label>
          )}
          {loopbackItems.length > 0 && (
            <div className="notice" role="alert">
              <p>
                {loopbackItems.length === 1 ? 'A webhook' : `${loopbackItems.length} webhooks`} to a loopback address ({loopbackItems.map((i) => i.label).join(', ')}) would be pushed to “{plan.remote.name}” at {plan.remote.url}: there, 127.0.0.1 and localhost are that machine, not yours.
              </p>
              <label className="row">
                <input type="checkbox" checked={confirmLoopback} onChange={(e) => setConfirmLoopback(e.target.checked)} /> Push {loopbackItems.length === 1 ? 'it' : 'them'} anyway
              </label>
            </div>
          )}
          {changes > 0 && (
            <div className="row end">
              <button type="button" className="primary" disabled={s.conflict > 0 || (s.delete > 0 && !confirmDeletions) || (loopbackItems.length > 0 && !confirmLoopback) || job?.status === 'running'} onClick={() => void apply()}>
                Apply {changes} change{changes > 1 ? 's' : ''}
              </button>
            </div>
          )}
        </section>
      )}
      {job && (
        <section className="card" aria-labelledby="apply-h" data-testid="sync-progress">
          <h2 id="apply-h">{job.status === 'running' ? 'Applying…' : job.status === 'done' ? 'Done' : job.status === 'refused' ? 'Not applied' : 'Stopped'}</h2>
          <progress max={Math.max(job.total, 1)} value={doneCount} aria-label="Steps applied" />
          <p role="status">
            {doneCount} of {job.total} step{job.total === 1 ? '' : 's'} applied
          </p>
          <ol className="plain apply-steps">
            {job.events.map((e) => (
              <li key={e.index} className={`step-${e.status}`}>
                {e.status === 'done' ? '✓' : e.status === 'failed' ? '✗' : '…'} {e.item.action} {e.item.label}
                {e.remote_id ? <code className="muted"> {e.remote_id}</code> : null}
                {e.error ? <span className="error"> {e.error}</span> : null}
              </li>
            ))}
          </ol>
          {finished && job.result?.refused && <p className="error">{job.result.refused}</p>}
          {finished && job.error && <p className="error">{job.error}</p>}
          {finished && job.result?.failed && (
            <p className="error">
              Stopped at {job.result.failed.item.label}: {job.result.failed.error}. Not done: {job.result.not_done.map((i) => i.label).join(', ') || 'nothing else'}. Fix the cause and apply again: what was done is kept.
            </p>
          )}
          {finished && job.status === 'done' && (
            <p className="ok-text" data-testid="sync-done">
              Applied {job.result?.done.length ?? 0} change{job.result?.done.length === 1 ? '' : 's'} {request.direction === 'push' ? `on “${request.remote}”` : 'here'}.
              {job.result?.done.some((i) => i.secrets.length) ? ` Enter the secrets listed above on ${where} to activate the sources waiting for them.` : ''}
            </p>
          )}
          {finished && (
            <div className="row end">
              <button type="button" onClick={() => void makePlan()}>
                Plan again
              </button>
            </div>
          )}
        </section>
      )}
    </div>
  );
}
