import { createInterface } from 'node:readline/promises';
import type { ApplyEvent, ApplyResult, Direction, PlanItem, SyncOptions, SyncPlan } from '../../contract/sync-api';
import type { ApiClient } from '../../remote/api-client';
import type { LinkStore, RemoteLinks } from '../../sync/links';
import { remoteFromProfile } from '../../sync/remotes';
import { applySync, planSync, type RemoteSpec, type SyncContext, syncStatus } from '../../sync/sync-session';
import { type Args, parse } from '../support/args';
import { bold, cyan, dateTime, dim, green, note, out, printJson, red, yellow } from '../support/output';
import { canPrompt } from '../support/prop-prompts';
import { UsageError } from '../support/usage';
import { connect } from './common';

export const HELP = `Usage: spout sync plan --to NAME | --from NAME
       spout sync push --to NAME [--yes] [--dry-run] [--force]
       spout sync pull --from NAME [--yes] [--dry-run] [--force]
       spout sync status --with NAME

Moves saved components, sources (code, props, active state), webhooks, subscriptions,
auto-subscriptions, workflows, data stores and connected accounts between this instance and another
one, named by a profile saved with "spout login -p NAME" (another Spout, or Pipedream: "spout login
-p NAME --pipedream --api-key KEY"). Terraform-style: the plan comes first, with a diff of code and
props per resource; applying it is idempotent (a second push plans nothing). Local ↔ remote ids are
kept in this instance's data dir, so updates keep the remote's ids.

A resource changed on the other side since the last sync is a conflict: nothing is applied until
you pull it first (or --force overwrites it). Deletions are listed in the plan and made only once
confirmed (asked on a terminal; --yes in scripts). Secret props and account credentials stay here
unless --with-secrets is given: the plan lists the values to enter on the other side, and sources
that need them wait there, inactive, until they are set. Apply stops at the first failure, saying
what was done and what was not; running it again carries on.

Options:
  --to NAME            the remote to plan or push to
  --from NAME          the remote to plan or pull from
  --with NAME          the remote of "status"
  --yes, -y            apply without asking, deletions included
  --dry-run            show the plan only (same as "plan")
  --force              overwrite changes made on the other side, re-create what it deleted
  --with-secrets       send secret props and account credentials in clear to the other side
  --with-data          include data store records
  --diff               show each item's diff with "plan" (--json always has it)
`;

const OPTIONS = {
  to: { type: 'string' },
  from: { type: 'string' },
  with: { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
  'dry-run': { type: 'boolean' },
  force: { type: 'boolean' },
  'with-secrets': { type: 'boolean' },
  'with-data': { type: 'boolean' },
  diff: { type: 'boolean' },
} as const;

/** Links kept by the local service (its data dir), read and written through /v1/sync/links. */
function serviceLinks(client: ApiClient): LinkStore {
  return {
    read: async (remote) => (await client.get<{ data: RemoteLinks }>('/v1/sync/links', { remote })).data,
    save: async (change) => void (await client.post('/v1/sync/links', change)),
  };
}

const SIGN: Record<PlanItem['action'], string> = { create: '+', update: '~', replace: '±', delete: '-', conflict: '!', skip: '·', unsupported: '×' };

function paintAction(item: PlanItem, text: string): string {
  const stream = process.stdout;
  if (item.action === 'create') return green(text, stream);
  if (item.action === 'delete' || item.action === 'conflict') return red(text, stream);
  if (item.action === 'update' || item.action === 'replace') return yellow(text, stream);
  return dim(text, stream);
}

function ids(item: PlanItem): string {
  if (item.local_id && item.remote_id) return `${item.local_id} ↔ ${item.remote_id}`;
  return item.local_id ?? item.remote_id ?? '';
}

/** Prints a plan for people: one line per item, its reason, secrets, notes and (for changes) its diff. */
function printPlan(plan: SyncPlan, showDiff: boolean): void {
  const where = plan.direction === 'push' ? `push to "${plan.remote.name}" (${plan.remote.url})` : `pull from "${plan.remote.name}" (${plan.remote.url})`;
  out(bold(`Plan: ${where}${plan.last_sync_at ? `, last synced ${dateTime(plan.last_sync_at)}` : ', never synced before'}`));
  for (const item of plan.items) {
    out(`${paintAction(item, `${SIGN[item.action]} ${item.action.padEnd(11)} ${item.label}`)} ${dim(ids(item))}`);
    out(`    ${item.reason}`);
    if (item.secrets.length) out(`    ${yellow('to enter there:')} ${item.secrets.join(', ')}`);
    for (const n of item.notes) out(dim(`    note: ${n}`));
    if (item.diff && (showDiff || item.action === 'update' || item.action === 'conflict' || item.action === 'replace')) {
      for (const line of item.diff.split('\n')) out(`      ${line.startsWith('+') && !line.startsWith('+++') ? green(line) : line.startsWith('-') && !line.startsWith('---') ? red(line) : line.startsWith('@@') ? cyan(line) : dim(line)}`);
    }
  }
  const s = plan.summary;
  const parts = [
    `${s.create} to create`,
    `${s.update} to update`,
    ...(s.replace ? [`${s.replace} to replace`] : []),
    `${s.delete} to delete`,
    ...(s.conflict ? [`${s.conflict} conflict${s.conflict > 1 ? 's' : ''}`] : []),
    ...(s.skip ? [`${s.skip} skipped`] : []),
    ...(s.unsupported ? [`${s.unsupported} not supported there`] : []),
  ];
  out(`${bold('Summary:')} ${parts.join(', ')}; ${s.unchanged} unchanged.`);
}

/** Whether anything would be written. */
function hasChanges(plan: SyncPlan): boolean {
  const s = plan.summary;
  return s.create + s.update + s.replace + s.delete > 0;
}

async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

function progress(event: ApplyEvent): void {
  const head = `[${event.index + 1}/${event.total}] ${event.item.action} ${event.item.label}`;
  if (event.status === 'started') return;
  if (event.status === 'done') note(`${head} ${green('done', process.stderr)}${event.remote_id ? dim(` (${event.remote_id})`, process.stderr) : ''}`);
  else note(`${head} ${red('failed', process.stderr)}: ${event.error ?? ''}`);
}

/** Prints how an apply ended; sets exit status 1 unless everything was done. */
function report(result: ApplyResult, json: boolean): void {
  if (json) printJson(result);
  if (result.ok) {
    if (!json) out(green(`Applied: ${result.done.length} change${result.done.length === 1 ? '' : 's'} ${result.plan.direction === 'push' ? `on "${result.plan.remote.name}"` : 'here'}.`));
    const waiting = result.done.filter((i) => i.secrets.length);
    if (!json && waiting.length) out(yellow(`Enter on ${result.plan.direction === 'push' ? `"${result.plan.remote.name}"` : 'this instance'}: ${waiting.map((i) => `${i.label}: ${i.secrets.join(', ')}`).join('; ')} (or ${result.plan.direction} again with --with-secrets).`));
    return;
  }
  process.exitCode = 1;
  if (json) return;
  if (result.refused) {
    note(`spout: ${result.refused}`);
    return;
  }
  const f = result.failed;
  if (f) note(`spout: stopped at ${f.item.action} ${f.item.label}: ${f.error}`);
  note(`Done (${result.done.length}): ${result.done.map((i) => `${i.action} ${i.label}`).join(', ') || 'nothing'}`);
  note(`Not done (${result.not_done.length + (f ? 1 : 0)}): ${[...(f ? [f.item] : []), ...result.not_done].map((i) => `${i.action} ${i.label}`).join(', ')}`);
  note(`Fix the cause and run it again: what was done is kept and not done twice.`);
}

function options(args: Args): SyncOptions {
  return { with_secrets: args.flag('with-secrets'), with_data: args.flag('with-data') };
}

function remoteOf(args: Args, option: 'to' | 'from' | 'with', action: string): string {
  const name = args.string(option);
  if (!name) throw new UsageError(`spout sync ${action} needs --${option} NAME, a profile saved with "spout login -p NAME"`);
  return name;
}

function context(args: Args, name: string): SyncContext {
  let remote: RemoteSpec;
  try {
    remote = remoteFromProfile(name);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const local = connect(args, 'sync');
  return { local, remote, links: serviceLinks(local) };
}

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, OPTIONS, HELP);
  if (!args) return;
  const action = args.required(0, 'what to do: plan, push, pull or status (spout sync --help)');
  args.atMost(1);
  const json = args.globals.json;

  if (action === 'status') {
    const ctx = context(args, remoteOf(args, 'with', 'status'));
    const status = await syncStatus(ctx, options(args));
    if (json) return printJson(status);
    out(bold(`"${status.remote.name}" (${status.remote.kind}, ${status.remote.url})`));
    out(`Last synced: ${status.last_sync_at ? dateTime(status.last_sync_at) : 'never'}; ${status.linked} resources linked.`);
    const line = (s: SyncPlan['summary']) => `${s.create} to create, ${s.update + s.replace} to update, ${s.delete} to delete, ${s.conflict} conflicts, ${s.unchanged} unchanged`;
    out(`Push would: ${line(status.push)}.`);
    out(status.pull ? `Pull would: ${line(status.pull)}.` : 'Pull: not supported from Pipedream.');
    for (const w of status.awaiting_secrets) out(yellow(`Waiting for secrets on "${status.remote.name}": ${w.remote_id}: ${w.secrets.join(', ')}`));
    return;
  }

  let direction: Direction;
  let name: string;
  if (action === 'plan') {
    if (args.string('to') && args.string('from')) throw new UsageError('give --to NAME (a push plan) or --from NAME (a pull plan), not both');
    direction = args.string('from') ? 'pull' : 'push';
    name = remoteOf(args, direction === 'push' ? 'to' : 'from', 'plan');
  } else if (action === 'push' || action === 'pull') {
    direction = action;
    name = remoteOf(args, action === 'push' ? 'to' : 'from', action);
  } else throw new UsageError(`unknown sync action "${action}"; use plan, push, pull or status`);

  const ctx = context(args, name);
  const planned = await planSync(ctx, direction, options(args), args.flag('force'));
  const { plan } = planned;
  const dryRun = action === 'plan' || args.flag('dry-run');
  if (dryRun) {
    if (json) return printJson(plan);
    printPlan(plan, args.flag('diff'));
    if (!hasChanges(plan) && plan.summary.conflict === 0) out(green(`Nothing to do: "${plan.remote.name}" and this instance are in sync.`));
    return;
  }
  if (!json) printPlan(plan, args.flag('diff'));
  if (!hasChanges(plan) && plan.summary.conflict === 0) {
    if (json) printJson({ ok: true, done: [], failed: null, not_done: [], refused: null, plan });
    else out(green(`Nothing to do: "${plan.remote.name}" and this instance are in sync.`));
    return;
  }
  let confirmed = args.flag('yes');
  if (!confirmed && plan.summary.conflict === 0 && canPrompt()) {
    const deletes = plan.summary.delete ? ` (${plan.summary.delete} deletion${plan.summary.delete > 1 ? 's' : ''})` : '';
    confirmed = await confirm(`Apply this plan${deletes} ${direction === 'push' ? `to "${name}"` : 'here'}? [y/N] `);
    if (!confirmed) {
      note('Nothing applied.');
      return;
    }
  }
  const result = await applySync(ctx, direction, options(args), args.flag('force'), { confirmDeletions: confirmed, planId: plan.plan_id, onEvent: progress });
  report(result, json);
}
