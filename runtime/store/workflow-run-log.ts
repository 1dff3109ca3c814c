// Each workflow's runs, newest kept in memory, all appended to `DATA_DIR/workflow-runs/<p_id>.jsonl`.
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { StepRunView, WorkflowRunView } from '../contract/workflow-api';
import { AppendLog } from '../lib/append-log';
import type { ProblemSink } from '../lib/file-problems';
import { makePrivateDir } from '../lib/private-files';

export type StepRunRecord = StepRunView;
export type WorkflowRunRecord = WorkflowRunView;

/** Runs kept per workflow (in memory and, after compaction, on disk). */
const KEPT = 100;

/** What is wrong with a line of a workflow's run history, or null for a run. */
export function checkRunLine(value: unknown): string | null {
  const run = value as Partial<WorkflowRunRecord> | null;
  if (typeof run !== 'object' || run === null) return 'not a workflow run (a JSON object was expected)';
  if (typeof run.id !== 'string' || typeof run.workflow_id !== 'string' || !Array.isArray(run.steps)) return 'not a workflow run (no id, workflow_id or steps)';
  return null;
}

/** The run history of every workflow. */
export class RunLog {
  private readonly logs = new Map<string, { log: AppendLog<WorkflowRunRecord>; runs: WorkflowRunRecord[] }>();
  private readonly opening = new Map<string, Promise<void>>();
  private readonly listeners = new Set<(run: WorkflowRunRecord) => void>();

  constructor(
    private readonly dir: string,
    private readonly report?: ProblemSink,
  ) {}

  /** Opens a workflow's history (creating it), keeping the newest runs as it reads. */
  open(workflowId: string): Promise<void> {
    if (this.logs.has(workflowId)) return Promise.resolve();
    // The file is read a chunk at a time: a second caller meanwhile waits for the same reading.
    let opening = this.opening.get(workflowId);
    if (!opening) this.opening.set(workflowId, (opening = this.read(workflowId).finally(() => this.opening.delete(workflowId))));
    return opening;
  }

  private async read(workflowId: string): Promise<void> {
    makePrivateDir(this.dir);
    const runs: WorkflowRunRecord[] = [];
    const { log } = await AppendLog.open<WorkflowRunRecord>(this.file(workflowId), {
      check: checkRunLine,
      report: this.report,
      onRecord: (run) => {
        runs.push(run);
        if (runs.length > 2 * KEPT) runs.splice(0, runs.length - KEPT);
      },
    });
    this.logs.set(workflowId, { log, runs: runs.slice(-KEPT) });
  }

  /** Records a finished run durably. */
  async add(run: WorkflowRunRecord): Promise<void> {
    const entry = this.logs.get(run.workflow_id);
    if (!entry) throw new Error(`no run log is open for ${run.workflow_id}`);
    entry.runs.push(run);
    if (entry.runs.length > KEPT) entry.runs.splice(0, entry.runs.length - KEPT);
    await entry.log.append(run);
    for (const listener of this.listeners) listener(run);
    if (entry.log.lineCount > 2 * KEPT) entry.log.compactInBackground(() => entry.runs.map((r) => JSON.stringify(r)));
  }

  /** Kept runs, newest first. */
  list(workflowId: string): WorkflowRunRecord[] {
    return [...(this.logs.get(workflowId)?.runs ?? [])].reverse();
  }

  /** The workflows whose histories are open. */
  workflowIds(): string[] {
    return [...this.logs.keys()];
  }

  /** Calls `listener` with each run recorded from now on; returns the unsubscribe function. */
  subscribe(listener: (run: WorkflowRunRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Deletes a workflow's history. */
  async remove(workflowId: string): Promise<void> {
    const entry = this.logs.get(workflowId);
    this.logs.delete(workflowId);
    await entry?.log.close();
    await fsp.rm(this.file(workflowId), { force: true });
  }

  async close(): Promise<void> {
    await Promise.all([...this.logs.values()].map((e) => e.log.close()));
    this.logs.clear();
  }

  private file(workflowId: string): string {
    return path.join(this.dir, `${workflowId}.jsonl`);
  }
}
