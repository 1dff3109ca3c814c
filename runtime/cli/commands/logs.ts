import type { ListResponse } from '../../contract/page';
import type { LogLineView } from '../../contract/source-api';
import { intOption, parse } from '../support/args';
import { follow, interruption } from '../support/follow';
import { dim, logLine, out, printJson, printJsonLine } from '../support/output';
import { resolveSource } from '../support/resolve';
import { UsageError } from '../support/usage';
import { connect } from './common';

export const HELP = `Usage: spout logs SRC [-n N] [-f] [--filter EXPR]

Prints the latest log lines of a deployed source (what its code wrote with console.log and
friends, and errors of its runs and hooks), oldest first. SRC is the source's id, name slug, or a
unique prefix of either.

Options:
  -n, --count N        how many of the latest lines (default 100, at most 100)
  -f, --follow         then print new lines as they are written, until Ctrl-C
  --filter EXPR        only lines matching the filter language of docs/cli.md "Filters": bare
                       words search the message, since/until its time, other terms the run that
                       wrote it (status:error, path:/orders); not with -f

With --json: a JSON array of lines {id, ts, level, message, invocation_id}, newest first; with -f,
one JSON line per log line instead, oldest first.
`;

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, { count: { type: 'string', short: 'n' }, follow: { type: 'boolean', short: 'f' }, filter: { type: 'string' } }, HELP);
  if (!args) return;
  const filter = args.string('filter');
  if (filter !== undefined && args.flag('follow')) throw new UsageError('-f follows every new line; leave out --filter to follow');
  const ref = args.atMost(1).required(0, 'the source whose logs to show (spout logs SRC)');
  const count = intOption(args, 'count', 100, 1, 100);
  const client = connect(args);
  const source = await resolveSource(client, ref);
  const page = await client.get<ListResponse<LogLineView>>(`/v1/sources/${source.id}/logs`, { limit: count, filter });
  const json = args.globals.json;
  const followIt = args.flag('follow');
  if (json && !followIt) return printJson(page.data);
  for (const l of [...page.data].reverse()) {
    if (json) printJsonLine(l);
    else out(logLine(l));
  }
  if (!followIt) {
    if (!json && page.data.length === 0) out(dim(`No log lines yet. "spout logs ${source.name_slug} -f" waits for them.`));
    return;
  }
  if (!json) out(dim(`Waiting for log lines of ${source.id}; Ctrl-C stops.`));
  const stop = interruption();
  try {
    await follow(client, source.id, { events: false, logs: true, json: false, signal: stop.signal, lastLogId: page.data[0]?.id ?? null, ...(json ? { printLog: printJsonLine } : {}) });
  } finally {
    stop.dispose();
  }
}
