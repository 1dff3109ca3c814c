import fs from 'node:fs';
import type { ApiClient } from '../../remote/api-client';
import type { WorkflowRecord } from '../../store/metadata';
import type { WorkflowRunRecord } from '../../store/workflow-run-log';
import { parse } from '../support/args';
import { bold, dateTime, dim, out, printJson, red, table } from '../support/output';
import { parseObjectOption } from '../support/prop-prompts';
import { UsageError } from '../support/usage';
import { connect } from './common';

export const HELP = `Usage: spout workflows list
       spout workflows describe WF
       spout workflows run WF [--event JSON|@FILE]
       spout workflows runs WF [-n N]
       spout workflows replay WF RUN
       spout workflows export WF > workflow.json
       spout workflows import FILE
       spout workflows delete WF

Local workflows (p_…): a trigger and action steps. "export" writes the definition as JSON (step
components as code, secrets masked) so it can live in git; "import" creates a workflow from such a
file. WF is a workflow id, a unique prefix of one, or a workflow's name.

Options:
  --event JSON|@FILE   the trigger event for "run" (default: a timer-like {timestamp})
  -n N                 how many runs "runs" lists (default 10, at most 100)
`;

type WorkflowView = WorkflowRecord & { trigger: WorkflowRecord['trigger'] & { endpoint_url?: string } };

async function resolveWorkflow(client: ApiClient, ref: string): Promise<WorkflowView> {
  const all = await client.all<WorkflowView>('/v1/users/me/workflows');
  const exact = all.filter((w) => w.id === ref || w.name === ref);
  const matches = exact.length ? exact : all.filter((w) => w.id.startsWith(ref));
  if (matches.length === 1) return matches[0] as WorkflowView;
  if (matches.length === 0) throw new Error(`no workflow matches "${ref}"; "spout workflows list" lists them`);
  throw new Error(`"${ref}" matches ${matches.length} workflows; give more of the id:\n${matches.map((w) => `  ${w.id}  ${w.name}`).join('\n')}`);
}

function triggerText(wf: WorkflowView): string {
  const t = wf.trigger;
  if (t.type === 'http') return `HTTP ${t.endpoint_url ?? ''}${t.custom_response ? ' (answers with $.respond)' : ''}`;
  if (t.type === 'source') return `events of ${t.source_id}${t.event_name ? ` on ${t.event_name}` : ''}`;
  if (t.type === 'timer') return 'cron' in t.schedule ? `cron "${t.schedule.cron}"` : `every ${t.schedule.intervalSeconds} s`;
  return 'manual';
}

function printRun(run: WorkflowRunRecord): void {
  const status = run.status === 'error' ? red(run.status) : run.status;
  out(`${bold(run.id)} ${status} in ${run.duration_ms} ms${run.replay_of ? dim(` (replay of ${run.replay_of})`) : ''}`);
  for (const step of run.steps) {
    const ended = step.error ? red(`failed: ${step.error.message}`) : step.exit ? `exited: ${step.exit.reason ?? ''}` : JSON.stringify(step.ret);
    const summary = step.exports.$summary === undefined ? '' : dim(` — ${String(step.exports.$summary)}`);
    out(`  ${step.name}: ${ended}${summary}`);
  }
}

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, { event: { type: 'string' }, n: { type: 'string', short: 'n' } }, HELP);
  if (!args) return;
  const action = args.required(0, 'what to do: list, describe, run, runs, replay, export, import or delete (spout workflows --help)');
  const client = connect(args);
  const json = args.globals.json;
  const target = () => resolveWorkflow(client, args.required(1, `the workflow (spout workflows ${action} WF)`));
  switch (action) {
    case 'list': {
      const all = await client.all<WorkflowView>('/v1/users/me/workflows');
      if (json) return printJson(all);
      if (all.length === 0) return out('No workflows yet; "spout workflows import FILE" creates one from a definition.');
      return out(
        table(
          ['ID', 'NAME', 'TRIGGER', 'STEPS', 'ACTIVE'],
          all.map((w) => [w.id, w.name, triggerText(w), String(w.steps.length), w.active ? 'yes' : 'no']),
        ),
      );
    }
    case 'describe': {
      const wf = await target();
      if (json) return printJson(wf);
      out(`${bold(wf.name)} (${wf.id})${wf.active ? '' : ' inactive'}, created ${dateTime(wf.created_at)}`);
      out(`Trigger: ${triggerText(wf)}`);
      wf.steps.forEach((s, i) => out(`  ${i + 1}. ${s.name} (${s.component_id}) ${dim(JSON.stringify(s.configured_props))}`));
      return;
    }
    case 'run': {
      const wf = await target();
      const event = parseObjectOption('--event', args.string('event'), '{"body":{"id":1}}');
      const { data } = await client.post<{ data: WorkflowRunRecord }>(`/v1/workflows/${wf.id}/run`, event === undefined ? {} : { event });
      if (data.status === 'error') process.exitCode = 1;
      return json ? printJson(data) : printRun(data);
    }
    case 'runs': {
      const wf = await target();
      const n = Number(args.string('n') ?? 10);
      if (!Number.isInteger(n) || n < 1 || n > 100) throw new UsageError(`-n: give a whole number from 1 to 100, not ${args.string('n')}`);
      const { data } = await client.get<{ data: WorkflowRunRecord[] }>(`/v1/workflows/${wf.id}/runs`, { limit: n });
      if (json) return printJson(data);
      if (data.length === 0) return out('No runs yet.');
      return data.forEach(printRun);
    }
    case 'replay': {
      const wf = await target();
      const runId = args.required(2, 'the run to replay (spout workflows replay WF RUN)');
      const { data } = await client.post<{ data: WorkflowRunRecord }>(`/v1/workflows/${wf.id}/runs/${encodeURIComponent(runId)}/replay`);
      if (data.status === 'error') process.exitCode = 1;
      return json ? printJson(data) : printRun(data);
    }
    case 'export':
      return printJson(await client.get<unknown>(`/v1/workflows/${(await target()).id}/export`));
    case 'import': {
      const file = args.required(1, 'the definition file (spout workflows import FILE)');
      let definition: unknown;
      try {
        definition = JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch (err) {
        throw new UsageError(`${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}; give a file written by "spout workflows export"`);
      }
      const { data } = await client.post<{ data: WorkflowView }>('/v1/workflows/import', definition);
      return json ? printJson(data) : out(`Imported ${bold(data.id)} (${data.name}); trigger: ${triggerText(data)}`);
    }
    case 'delete': {
      const wf = await target();
      await client.delete(`/v1/workflows/${wf.id}`);
      return json ? printJson({ deleted: wf.id }) : out(`Deleted ${wf.id} (${wf.name})`);
    }
    default:
      throw new UsageError(`unknown action "${action}"; use list, describe, run, runs, replay, export, import or delete`);
  }
}
