import { type FormEvent, useEffect, useMemo, useState } from 'react';
import type { VersionFields } from '../../../../runtime/contract/change-api';
import type { ComponentView } from '../../../../runtime/contract/component-api';
import type { ConfigurableProp } from '../../../../runtime/contract/component-shape';
import type { FieldProblem } from '../../../../runtime/contract/problem';
import type { StepRunView, WorkflowView } from '../../../../runtime/contract/workflow-api';
import { ApiError, messageOf } from '../../api/client';
import { useRoute } from '../../app/router';
import { useApp } from '../../app/store';
import { Link } from '../../ui/Link';
import { VersionNotice } from '../../ui/VersionNotice';
import { configuredProps } from '../props/prop-values';
import { type StepDraft, StepEditor } from './StepEditor';
import { NEW_TRIGGER, type TriggerDraft, TriggerFields, triggerDraft, triggerInput } from './TriggerFields';
import { SECRET_MASK, stepFormProps, stepNameFor, stepNameProblem, stepSuggestions } from './workflow';
import { saveWorkflow, useLatestWorkflow, useStepSamples } from './workflow-data';

let nextKey = 0;
const newStep = (): StepDraft => ({ key: ++nextKey, name: '', componentId: '', values: {}, nameEdited: false });

/** A saved step as a draft (secrets as the mask, which keeps them). */
function savedStep(step: WorkflowView['steps'][number]): StepDraft {
  return { key: ++nextKey, name: step.name, componentId: step.component_id, values: { ...step.configured_props }, nameEdited: true, saved: { name: step.name, componentId: step.component_id } };
}

/** Splits a problem's path into the step it names (`steps[1].name` or `steps.1.name`) and the rest. */
function stepOf(path: string): { index: number; rest: string } | null {
  const m = /^steps(?:\[(\d+)\]|\.(\d+))\.?(.*)$/.exec(path);
  return m ? { index: Number(m[1] ?? m[2]), rest: m[3] ?? '' } : null;
}

/**
 * The form that creates a workflow (`POST /v1/workflows`): its name, trigger, and ordered steps,
 * each a saved action with its props typed as text or JSON that may reference the trigger event
 * and earlier steps (`{{steps.trigger.event.body}}`, `{{steps.parse.$return_value}}`).
 * Given a `workflow`, it edits that one (`PUT /v1/workflows/{id}`), prefilled; `stepComponents`
 * are the actions its steps run (found even when the saved-components list does not reach them);
 * a save names the version the form started from, and a version saved elsewhere meanwhile is
 * said (`onReload` takes it) instead of being replaced unseen. A new workflow may start with
 * `firstAction` as its first step (an action page's "Use as a workflow step").
 */
export function WorkflowCreate({ workflow, stepComponents: given = [], onReload, firstAction }: { workflow?: WorkflowView; stepComponents?: ComponentView[]; onReload?(): void; firstAction?: ComponentView } = {}) {
  const stepComponents = firstAction ? [...given, firstAction] : given;
  const navigate = useRoute((s) => s.navigate);
  const { components, loadComponents, loadAccounts, loadDataStores, toast } = useApp();
  const [name, setName] = useState(workflow?.name ?? '');
  const [trigger, setTrigger] = useState<TriggerDraft>(() => (workflow ? triggerDraft(workflow.trigger) : NEW_TRIGGER));
  const [steps, setSteps] = useState<StepDraft[]>(() => (workflow ? workflow.steps.map(savedStep) : [firstAction ? { ...newStep(), componentId: firstAction.id, name: stepNameFor(firstAction.name, []) } : newStep()]));
  const [problems, setProblems] = useState<{ title: string; items: FieldProblem[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const [refreshing, setRefreshing] = useState(false);
  /** The version this form's changes are based on; a save refused for a newer one (409) keeps it in `refused`. */
  const [baseVersion, setBaseVersion] = useState(workflow?.version);
  const [refused, setRefused] = useState<VersionFields | null>(null);
  const latest = useLatestWorkflow(workflow?.id ?? null);
  const newer = refused ?? (latest && baseVersion !== undefined && latest.version > baseVersion ? latest : null);

  useEffect(() => {
    void loadComponents();
    void loadAccounts();
    void loadDataStores();
  }, [loadComponents, loadAccounts, loadDataStores]);

  const actions = useMemo(() => {
    const listed = components.filter((c) => c.type === 'action');
    return [...listed, ...stepComponents.filter((c) => c.type === 'action' && !listed.some((l) => l.id === c.id))];
  }, [components, stepComponents]);
  const names = steps.map((s) => s.name);
  const samples = useStepSamples(workflow?.id ?? null, trigger.type === 'source' && trigger.sourceId ? trigger.sourceId : null);
  /** Each step's last test output, by step key: later steps' suggestions and tests use it before the last run's. */
  const [tested, setTested] = useState<Record<number, StepRunView>>({});
  const outputOf = (s: StepDraft) => tested[s.key] ?? samples.lastRun?.steps.find((r) => r.name === s.saved?.name);
  const sampleEvents = samples.samples.map((e) => e.event);
  const nameProblems = steps.map((s, i) =>
    s.name === '' && !s.componentId
      ? null
      : stepNameProblem(
          s.name,
          names.filter((_, j) => j !== i),
        ),
  );

  // The service's problems, placed: per step (by the rest of the path), the trigger, the rest listed.
  const stepErrors: Array<Record<string, string>> = steps.map(() => ({}));
  let triggerError: string | undefined;
  for (const p of problems?.items ?? []) {
    const at = stepOf(p.path);
    const target = at ? stepErrors[at.index] : undefined;
    if (at && target) {
      const key = at.rest.startsWith('configured_props.') || at.rest === 'name' || at.rest === 'component_id' ? at.rest : '';
      target[key] ??= p.message;
    } else if (p.path.startsWith('trigger')) triggerError ??= p.message.startsWith(p.path) ? p.message : `${p.path}: ${p.message}`;
  }

  const update = (i: number, d: StepDraft) => setSteps(steps.map((s, j) => (j === i ? d : s)));
  const move = (i: number, delta: -1 | 1) => {
    const next = [...steps];
    const [moved] = next.splice(i, 1);
    if (!moved) return;
    next.splice(i + delta, 0, moved);
    setSteps(next);
    // Keep focus on the moved step's button so the keyboard user can go on moving it.
    requestAnimationFrame(() => {
      const at = i + delta + 1;
      const same = document.querySelector<HTMLButtonElement>(`[aria-label="Move Step ${at} ${delta < 0 ? 'up' : 'down'}"]`);
      const other = document.querySelector<HTMLButtonElement>(`[aria-label="Move Step ${at} ${delta < 0 ? 'down' : 'up'}"]`);
      (same && !same.disabled ? same : other)?.focus();
    });
  };

  const submit = async (e: FormEvent | null, base = baseVersion) => {
    e?.preventDefault();
    if (busy) return;
    const local: FieldProblem[] = [];
    steps.forEach((s, i) => {
      const problem = stepNameProblem(
        s.name,
        names.filter((_, j) => j !== i),
      );
      if (problem) local.push({ path: `steps[${i}].name`, message: problem });
      const component = actions.find((c) => c.id === s.componentId);
      if (!component) local.push({ path: `steps[${i}].component_id`, message: 'Choose the action this step runs.' });
      for (const p of stepFormProps((component?.configurable_props ?? []) as ConfigurableProp[])) {
        // The service keeps a masked secret for the step of the same name and action only.
        if (p.secret && s.values[p.name] === SECRET_MASK && (s.saved?.name !== s.name || s.saved.componentId !== s.componentId)) {
          local.push({ path: `steps[${i}].configured_props.${p.name}`, message: 'The step was renamed or runs another action, so its stored secret is not kept: type the secret again.' });
        }
      }
    });
    if (trigger.type === 'source' && !trigger.sourceId) local.push({ path: 'trigger.source_id', message: 'Choose the source whose events run the workflow.' });
    if (local.length > 0) {
      setProblems({ title: 'Fix the marked fields', items: local });
      return;
    }
    setBusy(true);
    try {
      const body = {
        ...(name.trim() ? { name: name.trim() } : {}),
        trigger: triggerInput(trigger),
        steps: steps.map((s) => {
          const component = actions.find((c) => c.id === s.componentId);
          const configured = configuredProps(stepFormProps(s.props ?? ((component?.configurable_props ?? []) as ConfigurableProp[])), s.values);
          return { name: s.name, component_id: s.componentId, configured_props: configured };
        }),
        ...(workflow && base !== undefined ? { base_version: base } : {}),
      };
      const wf = await saveWorkflow(workflow, body);
      toast(`${workflow ? 'Saved' : 'Created'} ${wf.name}`);
      navigate(`/workflows/${encodeURIComponent(wf.id)}`);
    } catch (err) {
      // Saved elsewhere since this form opened: nothing was saved; the notice offers reload or overwrite.
      if (err instanceof ApiError && err.conflict) return setRefused({ version: err.conflict.current_version, changed_by: err.conflict.changed_by, changed_at: err.conflict.changed_at });
      setProblems({ title: err instanceof ApiError && err.errors.length ? 'The workflow has problems' : messageOf(err), items: err instanceof ApiError ? err.errors : [] });
    } finally {
      setBusy(false);
    }
  };

  const refresh = async () => {
    setRefreshing(true);
    await loadComponents();
    setRefreshing(false);
  };

  return (
    <form className="workflow-create" onSubmit={(e) => void submit(e)} aria-labelledby="wf-create-h" noValidate>
      <header className="page-head">
        <div>
          <h1 id="wf-create-h" tabIndex={-1}>
            {workflow ? `Edit ${workflow.name}` : 'New workflow'}
          </h1>
          <p className="muted">
            {workflow ? (
              <>
                <code>{workflow.id}</code> · its runs stay, an HTTP trigger keeps its endpoint URL, and secrets shown as <code>{SECRET_MASK}</code> keep their stored values.
              </>
            ) : (
              'A trigger and ordered steps; each step runs a saved action and may use what the trigger and earlier steps gave.'
            )}
          </p>
        </div>
      </header>
      {newer && baseVersion !== undefined && (
        <VersionNotice
          what="workflow"
          newer={newer}
          base={baseVersion}
          refused={refused !== null}
          busy={busy}
          onReload={() => onReload?.()}
          onKeepMine={() => setBaseVersion(newer.version)}
          onOverwrite={() => {
            setBaseVersion(newer.version);
            setRefused(null);
            void submit(null, newer.version);
          }}
        />
      )}
      <div className="field narrow">
        <label htmlFor="wf-name">Workflow name</label>
        <input id="wf-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Untitled workflow" />
      </div>
      <TriggerFields draft={trigger} onChange={setTrigger} error={triggerError} />
      <div className="row">
        <h2 id="wf-steps-h">Steps</h2>
        <span className="grow" />
        <button type="button" className="small" onClick={() => void refresh()} disabled={refreshing}>
          {refreshing ? 'Reloading…' : 'Reload saved actions'}
        </button>
      </div>
      <p className="muted small-note">
        Values may be references: a value that is one whole <code>{'{{…}}'}</code> takes the referenced value&apos;s type; references inside text are written in. Suggestions appear as you type <code>{'{{'}</code>.
      </p>
      <ol className="steps" aria-labelledby="wf-steps-h">
        {steps.map((s, i) => (
          <li key={s.key}>
            <StepEditor
              index={i}
              count={steps.length}
              draft={s}
              actions={actions}
              takenNames={names.filter((_, j) => j !== i)}
              suggestions={stepSuggestions(
                sampleEvents,
                steps.slice(0, i).map((e) => ({ name: e.name, output: outputOf(e) })),
              )}
              testing={{
                workflowId: workflow?.id ?? null,
                samples: samples.samples,
                earlier: Object.fromEntries(steps.slice(0, i).flatMap((e) => (tested[e.key] && e.saved ? [[e.saved.name, { ...tested[e.key]?.exports, $return_value: tested[e.key]?.ret }]] : []))),
                result: tested[s.key] ?? null,
                onResult: (r) =>
                  setTested((t) => {
                    const next = { ...t };
                    if (r) next[s.key] = r;
                    else delete next[s.key];
                    return next;
                  }),
              }}
              nameProblem={nameProblems[i] ?? null}
              errors={stepErrors[i] ?? {}}
              onChange={(d) => update(i, d)}
              onMove={(delta) => move(i, delta)}
              onRemove={() => setSteps(steps.filter((_, j) => j !== i))}
            />
          </li>
        ))}
      </ol>
      <div className="row">
        <button type="button" onClick={() => setSteps([...steps, newStep()])}>
          Add step
        </button>
      </div>
      {problems && (
        <div className="problems" role="alert" aria-label="Problems">
          <strong>{problems.title}</strong>
          {problems.items.length > 0 && (
            <ul>
              {problems.items.map((p, i) => (
                <li key={i}>
                  {p.path && <code>{p.path}</code>} {p.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <div className="row end sticky-actions">
        {workflow && (
          <Link to={`/workflows/${encodeURIComponent(workflow.id)}`} className="button">
            Cancel
          </Link>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {workflow ? (busy ? 'Saving…' : 'Save workflow') : busy ? 'Creating…' : 'Create workflow'}
        </button>
      </div>
    </form>
  );
}
