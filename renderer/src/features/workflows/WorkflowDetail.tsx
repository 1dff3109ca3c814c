import { useEffect, useState } from 'react';
import type { ComponentView } from '../../../../runtime/contract/component-api';
import type { ConfigurableProp } from '../../../../runtime/contract/component-shape';
import type { WorkflowView } from '../../../../runtime/contract/workflow-api';
import { messageOf } from '../../api/client';
import { useRoute } from '../../app/router';
import { useApp } from '../../app/store';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { CopyButton } from '../../ui/CopyButton';
import { HttpTester } from '../../ui/HttpTester';
import { Link } from '../../ui/Link';
import { LoadState } from '../../ui/LoadState';
import { ActiveBadge, ResourceHeader } from '../../ui/ResourceHeader';
import { PropForm } from '../props/PropForm';
import { WorkflowRunForm } from './WorkflowRunForm';
import { WorkflowRuns } from './WorkflowRuns';
import { describeTrigger, downloadJson, exportFilename, stepFormProps } from './workflow';
import { deleteWorkflow, exportWorkflow, setWorkflowActive, useWorkflow } from './workflow-data';

/** A step's values in its action's own form, read-only (expressions shown as written). */
function StepValues({ step, component }: { step: WorkflowView['steps'][number]; component: ComponentView | undefined }) {
  if (Object.keys(step.configured_props).length === 0) return null;
  if (!component) return <pre className="props-json">{JSON.stringify(step.configured_props, null, 2)}</pre>;
  return <PropForm props={stepFormProps(component.configurable_props as ConfigurableProp[])} values={step.configured_props} configureTarget={null} source={null} errors={{}} idPrefix={`view-${step.name}`} expressions={{ suggestions: [] }} readOnly onChange={() => {}} onPropsChange={() => {}} />;
}

/** One workflow: its trigger (an HTTP trigger's endpoint URL with copy and a test request), steps, edit, runs by hand, runs, export, delete. */
export function WorkflowDetail({ id }: { id: string }) {
  const navigate = useRoute((s) => s.navigate);
  const { components, loadComponents, sources, toast } = useApp();
  const { workflow: wf, missing, set: setWf } = useWorkflow(id);
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [refresh, setRefresh] = useState(0);
  const [openRun, setOpenRun] = useState<string | null>(null);

  useEffect(() => {
    void loadComponents();
  }, [id, loadComponents]);

  if (missing || !wf) return <LoadState error={missing} />;

  const act = async (what: string, fn: () => Promise<void>) => {
    setBusy(what);
    try {
      await fn();
    } catch (err) {
      toast(messageOf(err), 'error');
    } finally {
      setBusy(null);
    }
  };
  const toggle = () =>
    act('toggle', async () => {
      const next = await setWorkflowActive(wf.id, !wf.active);
      setWf(next);
      toast(next.active ? 'Activated' : 'Deactivated');
    });
  const exportIt = () =>
    act('export', async () => {
      downloadJson(exportFilename(wf.name), await exportWorkflow(wf.id));
      toast('Exported (secrets masked)');
    });
  const remove = () =>
    act('delete', async () => {
      setConfirm(false);
      await deleteWorkflow(wf.id);
      toast(`Deleted ${wf.name}`);
      navigate('/workflows');
    });

  const { trigger } = wf;
  const componentName = (cid: string) => components.find((c) => c.id === cid)?.name;
  const sourceName = (sid: string) => sources.find((s) => s.id === sid)?.name ?? sid;

  return (
    <div className="workflow-detail">
      <ResourceHeader
        title={wf.name}
        badge={<ActiveBadge active={wf.active} />}
        id={wf.id}
        facts={
          <>
            {' '}
            · triggered by {describeTrigger(trigger)} · {wf.steps.length} step{wf.steps.length === 1 ? '' : 's'}
          </>
        }
        actions={
          <>
            <Link to={`/workflows/${encodeURIComponent(wf.id)}/edit`} className="button">
              Edit
            </Link>
            <button type="button" onClick={() => void toggle()} disabled={busy !== null}>
              {wf.active ? 'Deactivate' : 'Activate'}
            </button>
            <button type="button" onClick={() => void exportIt()} disabled={busy !== null}>
              Export
            </button>
            <button type="button" className="danger-outline" onClick={() => setConfirm(true)} disabled={busy !== null}>
              Delete
            </button>
          </>
        }
      />

      <section className="card" aria-labelledby="wf-trigger-h">
        <h2 id="wf-trigger-h">Trigger</h2>
        {trigger.type === 'http' ? (
          <div className="endpoint-box">
            <div className="row">
              <span className="muted">Endpoint</span>
              <code className="endpoint grow" data-testid="workflow-endpoint">
                {trigger.endpoint_url}
              </code>
              <CopyButton text={trigger.endpoint_url} label="Copy URL" />
            </div>
            {!wf.active && <p className="muted">The endpoint answers 404 while the workflow is inactive.</p>}
            <details>
              <summary>Send a test request</summary>
              <HttpTester endpoint={trigger.endpoint_url} idPrefix="wf-test" />
            </details>
          </div>
        ) : trigger.type === 'source' ? (
          <p>
            Each event of <Link to={`/sources/${encodeURIComponent(trigger.source_id)}`}>{sourceName(trigger.source_id)}</Link> <code>{trigger.source_id}</code> on the {trigger.event_name ? <code>{trigger.event_name}</code> : 'default'} channel.
          </p>
        ) : (
          <p>{describeTrigger(trigger)}</p>
        )}
      </section>

      <section className="card" aria-labelledby="wf-steps-h">
        <h2 id="wf-steps-h">Steps</h2>
        {wf.steps.length === 0 ? (
          <p className="empty">No steps: a run records only its trigger event.</p>
        ) : (
          <ol className="step-list">
            {wf.steps.map((s) => (
              <li key={s.name}>
                <strong className="mono">{s.name}</strong> <span className="muted">runs</span> {componentName(s.component_id) ?? ''} <code className="muted">{s.component_id}</code>
                <StepValues step={s} component={components.find((c) => c.id === s.component_id)} />
              </li>
            ))}
          </ol>
        )}
      </section>

      <WorkflowRunForm
        workflowId={wf.id}
        triggerType={trigger.type}
        onRan={(run) => {
          setOpenRun(run.id);
          setRefresh((n) => n + 1);
        }}
      />

      <WorkflowRuns workflowId={wf.id} stepCount={wf.steps.length} refresh={refresh} openRun={openRun} />

      {confirm && <ConfirmDialog title={`Delete ${wf.name}?`} body="Its runs, events, endpoint and subscriptions go with it. Export it first to keep the definition." confirmLabel="Delete workflow" onConfirm={() => void remove()} onCancel={() => setConfirm(false)} />}
    </div>
  );
}
