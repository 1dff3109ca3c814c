import type { StreamRow } from '../../contract/stream-api';
import { intOption, parse } from '../support/args';
import { interruption } from '../support/follow';
import { dim, out, printJsonLine } from '../support/output';
import { printStream, streamLine } from '../support/stream-print';
import { connect } from './common';

export const HELP = `Usage: spout stream [--filter EXPR] [-n N] [-f]

Prints the newest runs and events of every source, action and workflow, oldest first, a line each
(time, kind, target, status or delivery state, METHOD /path → code, summary, id).

Options:
  --filter EXPR        only rows matching the filter language of docs/cli.md "Filters"
                       (status:error source:orders since:1h, body.amount>50, "timed out")
  -n, --count N        how many of the newest rows (default 20, at most 100)
  -f, --follow         then print new rows matching the filter as they are recorded, until Ctrl-C

With --json: a JSON array of rows (GET /v1/stream), newest first; with -f, one JSON row per line.
`;

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, { filter: { type: 'string' }, count: { type: 'string', short: 'n' }, follow: { type: 'boolean', short: 'f' } }, HELP);
  if (!args) return;
  args.atMost(0);
  const filter = args.string('filter') ?? '';
  const count = intOption(args, 'count', 20, 1, 100);
  const client = connect(args);
  const json = args.globals.json;
  if (!args.flag('follow')) return printStream(client, filter, count, json);
  if (!json) await printStream(client, filter, count, false);
  else out(dim('Following the stream; Ctrl-C stops.'));
  const stop = interruption();
  try {
    await client.stream(`/sse/stream?filter=${encodeURIComponent(filter)}`, {
      signal: stop.signal,
      onMessage: (m) => {
        const row = JSON.parse(m.data) as StreamRow;
        if (json) printJsonLine(row);
        else out(streamLine(row));
      },
    });
  } finally {
    stop.dispose();
  }
}
