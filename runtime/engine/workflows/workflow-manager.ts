// Local workflows (`p_…`, docs/api.md): a trigger and ordered action steps. Each trigger
// event runs the steps one after another, each seeing the trigger event and what earlier steps
// returned and exported; every run is recorded and can be replayed. Workflows emit (`$.send.emit`)
// and listen (a source trigger is a subscription of the workflow to the source).

import type { ComponentLibrary, SandboxFactory } from '../../components/library';
import type { ChangeOrigin } from '../../contract/change-api';
import type { ComponentProblem } from '../../contract/component-shape';
import type { HttpResponsePayload } from '../../contract/host-protocol';
import type { StepTestRequest, WorkflowExport, WorkflowInput, WorkflowStepInput, WorkflowTriggerInput } from '../../contract/workflow-api';
import { ComponentError } from '../../lib/error-kinds';
import { newId } from '../../lib/ids';
import { type ChangeBy, firstVersion, nextVersion, requireBase } from '../../lib/record-versions';
import { maskSecrets, openSecrets, sealSecrets } from '../../props/secret/secret-values';
import { TimerScheduler } from '../../props/timer/timer-scheduler';
import { parseTimerSpec, timerEvent } from '../../props/timer/timer-spec';
import type { EventStore, StoredEvent } from '../../store/event-store';
import type { Metadata, WorkflowRecord, WorkflowStep, WorkflowTrigger } from '../../store/metadata';
import type { SecretBox } from '../../store/secrets';
import type { RunLog, StepRunRecord, WorkflowRunRecord } from '../../store/workflow-run-log';
import { type Emission, MAX_LISTENER_HOPS } from '../events/emission';
import type { Masker } from '../network/masker';
import type { ComponentSessions, RunActionOptions } from '../sessions/component-sessions';
import { resolveReferences } from './expressions';

export interface WorkflowManagerDeps {
  metadata: Metadata;
  library: ComponentLibrary;
  sessions: ComponentSessions;
  emission: Emission;
  events: EventStore;
  runs: RunLog;
  secrets: SecretBox;
  /** Loads a step's module only to learn what it declares (saving it). */
  describeSandbox: SandboxFactory;
}

const STEP_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Workflows: their definitions, triggers (HTTP endpoints, timers, source subscriptions) and runs. */
export class WorkflowManager {
  private readonly timers = new TimerScheduler({ onError: (key, err) => console.error(`workflow timer ${key}: ${(err as Error).message}`) });

  constructor(private readonly deps: WorkflowManagerDeps) {}

  /** All workflows, oldest first. */
  list(): WorkflowRecord[] {
    return this.deps.metadata.data.workflows;
  }

  find(id: string): WorkflowRecord | undefined {
    return this.list().find((w) => w.id === id);
  }

  /** The active workflow behind an HTTP trigger's endpoint id, given as it is or lower-cased (as the SDK's workflows client sends it). */
  byEndpoint(endpointId: string): WorkflowRecord | undefined {
    const endpointOf = (w: WorkflowRecord) => (w.active && w.trigger.type === 'http' ? w.trigger.endpoint_id : undefined);
    const exact = this.list().find((w) => endpointOf(w) === endpointId);
    if (exact) return exact;
    const folded = this.list().filter((w) => endpointOf(w)?.toLowerCase() === endpointId);
    return folded.length === 1 ? folded[0] : undefined;
  }

  /** Opens every workflow's events and runs, and starts timer triggers (after a restart). */
  async loadAll(): Promise<void> {
    for (const wf of this.list()) {
      await this.open(wf.id);
      this.schedule(wf);
    }
  }

  /** Creates a workflow; steps' components are saved, props checked where they hold no references. */
  async create(input: WorkflowInput, by: ChangeOrigin = 'api'): Promise<WorkflowRecord> {
    const id = newId('p');
    const now = Math.floor(Date.now() / 1000);
    const wf: WorkflowRecord = {
      id,
      name: input.name ?? 'Untitled workflow',
      trigger: this.trigger(input.trigger ?? { type: 'manual' }, undefined),
      steps: await this.steps(input.steps ?? [], []),
      active: input.active ?? true,
      ...firstVersion(by, now),
      created_at: now,
      updated_at: now,
    };
    await this.open(id);
    this.deps.metadata.data.workflows.push(wf);
    this.subscribeTrigger(wf);
    await this.deps.metadata.write();
    this.schedule(wf);
    return wf;
  }

  /**
   * Replaces what the input gives; the id, runs and HTTP endpoint stay. A change based on another
   * version is refused, checked again once its steps are saved (another update may have landed meanwhile).
   */
  async update(wf: WorkflowRecord, input: WorkflowInput, change: ChangeBy = { by: 'api' }): Promise<WorkflowRecord> {
    requireBase('workflow', wf, change);
    const trigger = input.trigger ? this.trigger(input.trigger, wf.trigger) : wf.trigger;
    const steps = input.steps ? await this.steps(input.steps, wf.steps) : wf.steps;
    requireBase('workflow', wf, change);
    this.unsubscribeTrigger(wf);
    const now = Math.floor(Date.now() / 1000);
    Object.assign(wf, { name: input.name ?? wf.name, trigger, steps, active: input.active ?? wf.active, ...nextVersion(wf, change.by, now), updated_at: now });
    this.subscribeTrigger(wf);
    await this.deps.metadata.write();
    this.schedule(wf);
    return wf;
  }

  /** Deletes a workflow with its runs, events and subscriptions (as emitter and as listener). */
  async remove(wf: WorkflowRecord): Promise<void> {
    this.timers.clear(wf.id);
    const data = this.deps.metadata.data;
    data.workflows = data.workflows.filter((w) => w.id !== wf.id);
    data.subscriptions = data.subscriptions.filter((s) => s.emitter_id !== wf.id && s.listener_id !== wf.id);
    await this.deps.metadata.write();
    await this.deps.runs.remove(wf.id);
    await this.deps.events.removeSource(wf.id);
  }

  /** Kept runs, newest first. */
  runs(wf: WorkflowRecord): WorkflowRunRecord[] {
    return this.deps.runs.list(wf.id);
  }

  /** Runs the workflow again with the trigger event of an earlier run. */
  replay(wf: WorkflowRecord, runId: string): Promise<WorkflowRunRecord> | null {
    const original = this.runs(wf).find((r) => r.id === runId);
    return original ? this.run(wf, original.event, { replayOf: original.id }) : null;
  }

  /**
   * Runs the steps in order with the trigger `event`. A step that throws or calls `$.flow.exit`
   * ends the run; `$.respond` in any step answers `onRespond` (the HTTP trigger's caller).
   */
  async run(wf: WorkflowRecord, event: unknown, options: { replayOf?: string; onRespond?: (r: HttpResponsePayload) => void; depth?: number; hops?: number } = {}): Promise<WorkflowRunRecord> {
    const run: WorkflowRunRecord = { id: newId('wfr'), workflow_id: wf.id, event, replay_of: options.replayOf ?? null, status: 'success', started_at_ms: Date.now(), duration_ms: 0, steps: [] };
    const steps: Record<string, unknown> = { trigger: { event } };
    // Later steps read earlier ones' outputs as they were; records show them masked.
    const shown: Record<string, unknown> = { trigger: { event } };
    // Each step's record is masked with its own credentials and every earlier step's: a step may pass a key on.
    let masker: Masker | undefined;
    for (const step of wf.steps) {
      const onOutputs: RunActionOptions['onOutputs'] = (out, used) => {
        steps[step.name] = { ...out.exports, $return_value: out.ret };
        masker = used;
      };
      const record = await this.runStep(wf, step, steps, { ...options, runId: run.id, shown, onOutputs, maskAlso: masker ? [masker] : [] });
      run.steps.push(record);
      shown[step.name] = { ...record.exports, $return_value: record.ret };
      steps[step.name] ??= shown[step.name];
      if (record.error) run.status = 'error';
      else if (record.exit) run.status = 'exited';
      if (run.status !== 'success') break;
    }
    run.duration_ms = Date.now() - run.started_at_ms;
    await this.deps.runs.add(run);
    return run;
  }

  /**
   * Runs one step alone (a "Test step"): with `event` (else the last run's, else a manual one) and
   * earlier steps' outputs as given (else the last run's); `override` tries unsaved props or another
   * action. Nothing is recorded as a run and nothing is emitted. Null when there is no such step.
   */
  async testStep(wf: WorkflowRecord, name: string, input: StepTestRequest): Promise<StepRunRecord | null> {
    const index = wf.steps.findIndex((s) => s.name === name);
    const saved = wf.steps[index];
    if (!saved) return null;
    const last = this.runs(wf)[0];
    const steps: Record<string, unknown> = { trigger: { event: input.event !== undefined ? input.event : (last?.event ?? this.manualEvent(wf)) } };
    for (const earlier of wf.steps.slice(0, index)) {
      const given = input.steps?.[earlier.name];
      const ran = last?.steps.find((r) => r.name === earlier.name);
      if (given !== undefined) steps[earlier.name] = given;
      else if (ran) steps[earlier.name] = { ...ran.exports, $return_value: ran.ret };
    }
    const step = { ...saved, ...(input.component_id ? { component_id: input.component_id } : {}) };
    if (input.configured_props) {
      const component = this.deps.library.find(step.component_id);
      const kept = step.component_id === saved.component_id ? saved.configured_props : {};
      step.configured_props = sealSecrets(component?.configurable_props ?? [], input.configured_props, this.deps.secrets, kept);
    }
    return this.runStep(wf, step, steps, { test: true });
  }

  /** The workflow as portable JSON: step components as code, secrets masked. */
  export(wf: WorkflowRecord): WorkflowExport {
    const { trigger } = wf;
    return {
      spout_workflow: 1,
      name: wf.name,
      trigger: trigger.type === 'http' ? { type: 'http', custom_response: trigger.custom_response } : trigger,
      steps: wf.steps.map((s) => {
        const component = this.deps.library.find(s.component_id);
        return {
          name: s.name,
          component_key: component?.key ?? null,
          component_code: component?.code ?? '',
          configured_props: maskSecrets(component?.configurable_props ?? [], s.configured_props),
        };
      }),
    };
  }

  /** Each step's secret props in clear, by step name (steps without secrets are left out). */
  secretValues(wf: WorkflowRecord): Record<string, Record<string, unknown>> {
    const out: Record<string, Record<string, unknown>> = {};
    for (const step of wf.steps) {
      const props = this.deps.library.find(step.component_id)?.configurable_props ?? [];
      const secret = new Set(props.filter((p) => p.secret).map((p) => p.name));
      const opened = openSecrets(props, step.configured_props, this.deps.secrets);
      const values = Object.fromEntries(Object.entries(opened).filter(([name]) => secret.has(name)));
      if (Object.keys(values).length > 0) out[step.name] = values;
    }
    return out;
  }

  private async runStep(
    wf: WorkflowRecord,
    step: WorkflowStep,
    steps: Record<string, unknown>,
    options: { onRespond?: (r: HttpResponsePayload) => void; depth?: number; hops?: number; test?: boolean; runId?: string } & Pick<RunActionOptions, 'onOutputs' | 'maskAlso'> & { shown?: Record<string, unknown> },
  ): Promise<StepRunRecord> {
    const started = Date.now();
    const record: StepRunRecord = { name: step.name, component_id: step.component_id, invocation_id: null, exports: {}, ret: null, logs: [], duration_ms: 0, error: null, exit: null };
    const component = this.deps.library.find(step.component_id);
    try {
      if (!component) throw new Error(`step ${step.name}: component ${step.component_id} is missing`);
      const stored = openSecrets(component.configurable_props, step.configured_props, this.deps.secrets);
      const configured = resolveReferences(stored, { steps }, `steps.${step.name}.configured_props`) as Record<string, unknown>;
      const workflowStep = { workflow_id: wf.id, run_id: options.runId ?? null, step: step.name };
      const answer = await this.deps.sessions.runAction(component, configured, steps, { jit: false, onRespond: options.onRespond, workflowStep, onOutputs: options.onOutputs, maskAlso: options.maskAlso, shownSteps: options.shown && { ...options.shown } });
      Object.assign(record, { invocation_id: answer.invocation_id, exports: answer.exports, ret: answer.ret, logs: answer.os, error: answer.error, exit: answer.exit });
      if (answer.emitted.length > 0 && !options.test) {
        await this.deps.emission.accept(
          wf.id,
          answer.emitted.map((e) => ({ json: JSON.stringify(e), meta: {} })),
          options.depth ?? 0,
          null,
          options.hops ?? 0,
        );
      }
    } catch (err) {
      const e = err as Error;
      record.error = { name: e.name, message: e.message, stack: e.stack ?? null };
    }
    record.duration_ms = Date.now() - started;
    return record;
  }

  private async open(id: string): Promise<void> {
    await this.deps.runs.open(id);
    await this.deps.events.openSource(id);
  }

  /** Runs the workflow with an event it listens to (its source trigger, or any subscription; wired to emission by service.ts). */
  listen(id: string, event: StoredEvent, depth: number): void {
    const wf = this.find(id);
    if (!wf?.active || depth > MAX_LISTENER_HOPS) return;
    this.run(wf, JSON.parse(event.json), { depth, hops: event.hops ?? 0 }).catch((err: Error) => console.error(`workflow ${id}: ${err.message}`));
  }

  private schedule(wf: WorkflowRecord): void {
    this.timers.clear(wf.id);
    if (!wf.active || wf.trigger.type !== 'timer') return;
    this.timers.set(wf.id, wf.trigger.schedule, wf.updated_at * 1000, (event) => {
      this.run(wf, event).catch((err: Error) => console.error(`workflow ${wf.id}: ${err.message}`));
    });
  }

  private subscribeTrigger(wf: WorkflowRecord): void {
    if (wf.trigger.type !== 'source') return;
    this.deps.metadata.data.subscriptions.push({ id: newId('sub'), emitter_id: wf.trigger.source_id, listener_id: wf.id, event_name: wf.trigger.event_name ?? null, created_at: Math.floor(Date.now() / 1000) });
  }

  private unsubscribeTrigger(wf: WorkflowRecord): void {
    const { trigger } = wf;
    if (trigger.type !== 'source') return;
    const data = this.deps.metadata.data;
    data.subscriptions = data.subscriptions.filter((s) => !(s.listener_id === wf.id && s.emitter_id === trigger.source_id && s.event_name === (trigger.event_name ?? null)));
  }

  private trigger(input: WorkflowTriggerInput, previous: WorkflowTrigger | undefined): WorkflowTrigger {
    switch (input.type) {
      case 'source':
        if (!this.deps.metadata.data.sources.some((s) => s.id === input.source_id)) {
          throw new ComponentError([{ path: 'trigger.source_id', message: `no source ${input.source_id}; deploy it first (POST /v1/sources)` }]);
        }
        return { type: 'source', source_id: input.source_id, event_name: input.event_name ?? null };
      case 'http':
        return { type: 'http', endpoint_id: previous?.type === 'http' ? previous.endpoint_id : newId('en', 16), custom_response: input.custom_response ?? false };
      case 'timer': {
        const parsed = parseTimerSpec(input.schedule, 'trigger.schedule');
        if ('problem' in parsed) throw new ComponentError([{ path: 'trigger.schedule', message: parsed.problem }]);
        return { type: 'timer', schedule: parsed.spec };
      }
      case 'manual':
        return { type: 'manual' };
    }
  }

  /** Checks and saves steps: unique names, actions only; literal prop values checked, secrets sealed. */
  private async steps(inputs: WorkflowStepInput[], previous: WorkflowStep[]): Promise<WorkflowStep[]> {
    const problems: ComponentProblem[] = [];
    const names = new Set<string>();
    const out: WorkflowStep[] = [];
    for (const [i, input] of inputs.entries()) {
      const where = `steps[${i}]`;
      if (!STEP_NAME.test(input.name) || input.name === 'trigger') {
        problems.push({ path: `${where}.name`, message: `step name "${input.name}" must be an identifier (letters, digits, _) other than "trigger", as steps.<name> refers to it` });
      } else if (names.has(input.name)) problems.push({ path: `${where}.name`, message: `two steps are named "${input.name}"; names must be unique` });
      names.add(input.name);
      const component = input.component_code !== undefined ? await this.deps.library.save(input.component_code, `${input.name}.mjs`, this.deps.describeSandbox) : input.component_id !== undefined ? this.deps.library.find(input.component_id) : undefined;
      if (!component) {
        problems.push({ path: `${where}.component_id`, message: input.component_id ? `no component ${input.component_id}` : 'give component_id (a saved action) or component_code' });
        continue;
      }
      if (component.type !== 'action') {
        problems.push({ path: `${where}.component_id`, message: `${component.id} is a source; workflow steps are actions` });
        continue;
      }
      const kept = previous.find((p) => p.name === input.name && p.component_id === component.id)?.configured_props ?? {};
      out.push({ name: input.name, component_id: component.id, configured_props: sealSecrets(component.configurable_props, input.configured_props ?? {}, this.deps.secrets, kept) });
    }
    if (problems.length > 0) throw new ComponentError(problems);
    return out;
  }

  /** The timer trigger's event when a workflow is run by hand (`POST …/run` without an event). */
  manualEvent(wf: WorkflowRecord): unknown {
    return wf.trigger.type === 'timer' ? timerEvent(wf.trigger.schedule, Date.now()) : { timestamp: Math.floor(Date.now() / 1000) };
  }

  async stop(): Promise<void> {
    this.timers.clearAll();
  }
}
