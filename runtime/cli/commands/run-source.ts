import type { EventSummary, LogLineView } from '../../contract/source-api';
import type { ListResponse } from '../../contract/page';
import { parse } from '../support/args';
import { bold, eventBlock, logLine, out, printJson, red } from '../support/output';
import { resolveSource } from '../support/resolve';
import { connect } from './common';

export const HELP = `Usage: spout run SRC

Runs a deployed source now (as the UI's run-now does) and prints what the run logged and emitted.
Exits 1 when the run failed. SRC is the source's id, name slug, or a unique prefix of either.
`;

interface RunResult {
  invocation_id: string;
  error: { name: string; message: string } | null;
  emitted: string[];
}

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, {}, HELP);
  if (!args) return;
  const ref = args.atMost(1).required(0, 'the source to run (spout run SRC)');
  const client = connect(args);
  const source = await resolveSource(client, ref);
  const { data: result } = await client.post<{ data: RunResult }>(`/v1/sources/${source.id}/run`);
  const emitted = new Set(result.emitted);
  const events = emitted.size
    ? (await client.get<ListResponse<EventSummary>>(`/v1/sources/${source.id}/event_summaries`, { limit: Math.min(100, emitted.size + 10), expand: 'event' })).data.filter((e) => emitted.has(e.id)).reverse()
    : [];
  const logs = (await client.get<ListResponse<LogLineView>>(`/v1/sources/${source.id}/logs`, { limit: 100 })).data.filter((l) => l.invocation_id === result.invocation_id).reverse();
  if (args.globals.json) printJson({ ...result, events, logs });
  else {
    for (const l of logs) out(logLine(l));
    for (const e of events) out(eventBlock(e));
    out(result.error ? `${red('failed')} ${result.error.name}: ${result.error.message}` : `Ran ${bold(source.id)} (${source.name_slug}): ${emitted.size} event${emitted.size === 1 ? '' : 's'} emitted`);
  }
  if (result.error) process.exitCode = 1;
}
