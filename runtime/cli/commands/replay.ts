import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InvocationView } from '../../contract/invocation-api';
import { parse } from '../support/args';
import { bold, invocationLine, out, printJson } from '../support/output';
import { UsageError } from '../support/usage';
import { connect } from './common';

export const HELP = `Usage: spout replay INVOCATION [--edit]

Runs a recorded invocation again against the source's current code: an HTTP request is sent to its
endpoint again with the same method, path, query, headers and body; a timer's, run-now's or
listened-to event's run gets the same event. Prints the new run. "spout invocations SRC" lists ids.

Options:
  --edit               open the request (or event) in $VISUAL/$EDITOR first and replay what you save
`;

/** What --edit lets the user change, as the replay endpoint takes it. */
type Edits = { method: string; path: string; query: string; headers: Record<string, string | string[]>; body: string } | { event: unknown };

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, { edit: { type: 'boolean' } }, HELP);
  if (!args) return;
  const id = args.atMost(1).required(0, 'the invocation to replay (spout replay inv…; "spout invocations SRC" lists them)');
  const client = connect(args);
  let edits: Edits | Record<string, never> = {};
  if (args.flag('edit')) {
    const { data: record } = await client.get<{ data: InvocationView }>(`/v1/invocations/${encodeURIComponent(id)}`);
    edits = editInEditor(record);
  }
  const { data } = await client.post<{ data: InvocationView }>(`/v1/invocations/${encodeURIComponent(id)}/replay`, edits);
  if (args.globals.json) return printJson(data);
  out(invocationLine(data));
  if (data.response) out(`${bold(`HTTP ${data.response.status}`)} ${data.response.body_encoding === 'utf8' ? data.response.body : `(${data.response.body_size} bytes)`}`);
  if (data.error?.stack) out(data.error.stack);
}

/** Writes the request (or event) to a temp file, opens the user's editor on it, and reads back what was saved. */
function editInEditor(record: InvocationView): Edits {
  const editor = process.env.VISUAL ?? process.env.EDITOR;
  if (!editor) throw new UsageError('--edit needs an editor: set VISUAL or EDITOR (e.g. EDITOR=nano)');
  const r = record.request;
  if (r?.body_encoding === 'base64') throw new UsageError('the recorded body is binary; replay it without --edit');
  const draft: Edits = r ? { method: r.method, path: r.path, query: r.query, headers: r.headers, body: r.body } : { event: record.event };
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spout-replay-')), `${record.id}.json`);
  fs.writeFileSync(file, `${JSON.stringify(draft, null, 2)}\n`, { mode: 0o600 });
  try {
    // Through a shell, as git runs $EDITOR: it may carry arguments ("code --wait").
    const result = spawnSync(`${editor} "${file}"`, { stdio: 'inherit', shell: true });
    if (result.error || result.status !== 0) throw new Error(`the editor (${editor}) ${result.error ? `could not start: ${result.error.message}` : `exited with ${result.status ?? result.signal}`}; nothing was replayed`);
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8')) as Edits;
    } catch (err) {
      throw new Error(`the edited file is not JSON (${(err as Error).message}); nothing was replayed`);
    }
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}
