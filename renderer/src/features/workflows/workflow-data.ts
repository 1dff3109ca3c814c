// The Workflows screens' data: a workflow (with its steps' actions when edited), its runs, and
// every change to it (each keeps the app's workflow list in step).
import { useEffect } from 'react';
import type { ComponentView } from '../../../../runtime/contract/component-api';
import type { StepTestRequest, WorkflowInput, WorkflowRunView, WorkflowView } from '../../../../runtime/contract/workflow-api';
import { ApiError } from '../../api/client';
import { usePoll } from '../../api/use-poll';
import { api } from '../../api/v1';
import { useApp } from '../../app/store';

/** Null for a workflow the service does not have (a 404), else the error. */
async function orMissing<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

const missingText = (id: string) => `Workflow ${id} does not exist (any more).`;

/** One workflow; `missing` says why there is none. */
export function useWorkflow(id: string) {
  const read = usePoll(id, async () => ({ workflow: await orMissing(api.getWorkflow(id)) }));
  return { workflow: read.data?.workflow ?? null, missing: read.error ?? (read.data && !read.data.workflow ? missingText(id) : null), set: (workflow: WorkflowView) => read.set({ workflow }) };
}

/** A workflow to edit, with each step's action (the form needs their props to show the saved values). */
export function useWorkflowToEdit(id: string) {
  const read = usePoll(id, async () => {
    const workflow = await orMissing(api.getWorkflow(id));
    if (!workflow) return { found: null };
    const ids = [...new Set(workflow.steps.map((s) => s.component_id))];
    const components = await Promise.all(ids.map((cid) => api.getComponent(cid).catch(() => null)));
    return { found: { workflow, components: components.filter((c): c is ComponentView => c !== null) } };
  });
  return { loaded: read.data?.found ?? null, missing: read.error ?? (read.data && !read.data.found ? missingText(id) : null), reload: read.reload };
}

/** A workflow as the service has it now, read every 2 s while it is edited: a version saved elsewhere shows within that. */
export function useLatestWorkflow(id: string | null): WorkflowView | null {
  return usePoll(id, () => api.getWorkflow(id as string), 2000).data;
}

/** A workflow's kept runs, newest first, asked for again every 3 s and whenever `refresh` changes. */
export function useWorkflowRuns(workflowId: string, refresh: number) {
  const page = usePoll(workflowId, () => api.listWorkflowRuns(workflowId), 3000);
  const { reload } = page;
  useEffect(() => {
    if (refresh) void reload();
  }, [refresh, reload]);
  return { runs: page.data?.data ?? null, total: page.data?.page_info.total_count ?? 0, error: page.error, reload: page.reload };
}

/** Creates a workflow (`existing` null, active at once) or saves an existing one. */
export async function saveWorkflow(existing: WorkflowView | undefined, body: WorkflowInput): Promise<WorkflowView> {
  const saved = existing ? await api.updateWorkflow(existing.id, body) : await api.createWorkflow({ ...body, active: true });
  useApp.getState().upsertWorkflow(saved);
  return saved;
}

export async function setWorkflowActive(id: string, active: boolean): Promise<WorkflowView> {
  const saved = await api.updateWorkflow(id, { active });
  useApp.getState().upsertWorkflow(saved);
  return saved;
}

export async function deleteWorkflow(id: string): Promise<void> {
  await api.deleteWorkflow(id);
  useApp.getState().removeWorkflow(id);
}

/** Imports an exported definition as a new workflow. */
export async function importWorkflow(definition: unknown): Promise<WorkflowView> {
  const created = await api.importWorkflow(definition);
  useApp.getState().upsertWorkflow(created);
  return created;
}

export const exportWorkflow = (id: string) => api.exportWorkflow(id);
export const runWorkflow = (id: string, event?: unknown) => api.runWorkflow(id, event);
/** Runs one saved step alone ("Test step"). */
export const testStep = (workflowId: string, step: string, body: StepTestRequest) => api.testWorkflowStep(workflowId, step, body);
export const replayRun = (workflowId: string, runId: string) => api.replayRun(workflowId, runId);

/** A trigger event a step can be tested with, and where it came from. */
export interface SampleEvent {
  label: string;
  event: unknown;
}

/**
 * What a workflow's steps can be written and tested against: its newest run (the trigger event and
 * each step's output) and sample trigger events (the source trigger's recent events, then recent runs' events).
 */
export function useStepSamples(workflowId: string | null, sourceId: string | null) {
  const read = usePoll(`${workflowId ?? ''}|${sourceId ?? ''}`, async () => {
    const runs = workflowId ? (await api.listWorkflowRuns(workflowId)).data.slice(0, 10) : [];
    const events = sourceId ? (await api.listEvents(sourceId, { limit: 10 })).data : [];
    return { runs, events };
  });
  const runs: WorkflowRunView[] = read.data?.runs ?? [];
  const samples: SampleEvent[] = [...(read.data?.events ?? []).map((e) => ({ label: `Event ${e.id} of the trigger source`, event: e.event })), ...runs.map((r, i) => ({ label: `${i === 0 ? 'Last run' : 'Run'} ${r.id} (${r.status})`, event: r.event }))];
  return { lastRun: runs[0] ?? null, samples, reload: read.reload };
}
