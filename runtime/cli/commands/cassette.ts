import fs from 'node:fs';
import path from 'node:path';
import type { InvocationView } from '../../contract/invocation-api';
import type { Cassette } from '../../contract/network-api';
import { callLines, cassetteSkeleton, unansweredCalls } from '../../engine/network/cassette-skeleton';
import type { ApiClient } from '../../remote/api-client';
import { parse } from '../support/args';
import { displayPath, note, out, printJson } from '../support/output';
import { resolveSource } from '../support/resolve';
import { UsageError } from '../support/usage';
import { connect } from './common';

export const HELP = `Usage: spout cassette export SRC [FILE]
       spout cassette import SRC FILE
       spout cassette skeleton INVOCATION [FILE]

A source's cassette holds the outgoing HTTP calls it recorded (network mode "record"); in "replay"
mode its calls are answered from it, so it runs with the network unreachable. A cassette is a plain
JSON file without credentials: keep it beside the component (NAME.cassette.json) and commit it.
Add or edit an entry's response (status, headers, body) by hand to try an error path.

  export SRC [FILE]    write the cassette to FILE (default: stdout)
  import SRC FILE      replace the source's cassette with FILE
  skeleton INV [FILE]  the calls of a run no recording answered (network mode "discover" lists
                       them all in one run) as a cassette to fill in, after FILE's own entries

"spout update SRC --network replay" switches a source to replaying; "spout dev FILE --record" and
"--replay" do it all beside the component file.
`;

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, {}, HELP);
  if (!args) return;
  const [action, ref, file] = args.positionals;
  if (action === 'skeleton') return writeSkeleton(connect(args), ref, file);
  if (action !== 'export' && action !== 'import') throw new UsageError('give export, import or skeleton (spout cassette export SRC [FILE])');
  if (!ref) throw new UsageError(`missing the source (spout cassette ${action} SRC${action === 'import' ? ' FILE' : ''})`);
  const client = connect(args);
  const source = await resolveSource(client, ref);
  if (action === 'export') {
    const { data } = await client.get<{ data: Cassette }>(`/v1/sources/${source.id}/cassette`);
    if (!file) return printJson(data);
    fs.writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
    return out(`Wrote ${data.entries.length} recorded call${data.entries.length === 1 ? '' : 's'} of ${source.id} to ${displayPath(path.resolve(file))}`);
  }
  if (!file) throw new UsageError('missing the file to import (spout cassette import SRC FILE)');
  const { data } = await client.put<{ data: Cassette }>(`/v1/sources/${source.id}/cassette`, readCassette(file));
  if (args.globals.json) return printJson(data);
  out(`${source.id} now has ${data.entries.length} recorded call${data.entries.length === 1 ? '' : 's'} from ${displayPath(path.resolve(file))}`);
}

/** `skeleton`: the run's unanswered calls as entries to fill in, added to FILE (made when missing) or printed. */
async function writeSkeleton(client: ApiClient, invocation: string | undefined, file: string | undefined): Promise<void> {
  if (!invocation) throw new UsageError('missing the run (spout cassette skeleton INVOCATION [FILE]); "spout invocations SRC" lists runs');
  const { data: run } = await client.get<{ data: InvocationView }>(`/v1/invocations/${encodeURIComponent(invocation)}`);
  if (unansweredCalls([run]).length === 0) throw new Error(`${run.id} made no call its cassette could not answer; run it in network mode "discover" to list every call`);
  if (!file) return printJson(cassetteSkeleton(unansweredCalls([run]), undefined));
  writeRunSkeleton(run, file);
}

/** Adds a run's unanswered calls to the cassette FILE (made when missing) as entries to fill in, and says which; `spout run --skeleton` writes with it too. */
export function writeRunSkeleton(run: Pick<InvocationView, 'id' | 'calls'>, file: string): void {
  const calls = unansweredCalls([run]);
  const base = fs.existsSync(file) ? (readCassette(file) as Cassette) : undefined;
  fs.writeFileSync(file, `${JSON.stringify(cassetteSkeleton(calls, base), null, 2)}\n`);
  note(`Added ${calls.length} call${calls.length === 1 ? '' : 's'} of ${run.id} to ${displayPath(path.resolve(file))}:`);
  for (const line of callLines(calls)) note(line);
  note('Fill in each response, then "spout cassette import SRC FILE" (or spout deploy --cassette FILE).');
}

/** A cassette file's JSON; a missing or broken file is an error naming it. */
export function readCassette(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`${file}: no such file`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new Error(`${file} is not JSON (${(err as Error).message})`);
  }
}

/** Where `spout dev` keeps a component's cassette: beside it, as NAME.cassette.json. */
export function cassetteFileOf(componentFile: string): string {
  return path.join(path.dirname(componentFile), `${path.basename(componentFile).replace(/\.[^.]+$/, '')}.cassette.json`);
}
