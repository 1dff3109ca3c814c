import type { ListResponse } from '../../contract/page';
import type { EventSummary } from '../../contract/source-api';
import { intOption, parse } from '../support/args';
import { follow, interruption } from '../support/follow';
import { dim, eventBlock, out, printJson, printJsonLine } from '../support/output';
import { resolveSource } from '../support/resolve';
import { printStream } from '../support/stream-print';
import { UsageError } from '../support/usage';
import { connect } from './common';

export const HELP = `Usage: spout events SRC [-n N] [-f] [--filter EXPR]
       spout events --all [-n N] [--filter EXPR]

Prints the latest events of a deployed source, oldest first. SRC is the source's id, name slug, or
a unique prefix of either. With --all, the latest events of every source and workflow, one line
each (time, emitter, delivery state, summary), from GET /v1/stream.

Options:
  -n, --count N        how many of the latest events (default 10, at most 100)
  -f, --follow         then print new events as they are emitted, until Ctrl-C
  --event-name NAME    events of that channel instead of the default one
  --all                events of every source and workflow (not with SRC or -f)
  --filter EXPR        only events matching the filter language of docs/cli.md "Filters"
                       (body.amount>50 delivery:failed since:1h); not with -f

With --json: a JSON array of the events, newest first (as GET /v1/sources/{id}/event_summaries,
or with --all the rows of GET /v1/stream); with -f, one JSON event per line instead, oldest first.
`;

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, { count: { type: 'string', short: 'n' }, follow: { type: 'boolean', short: 'f' }, 'event-name': { type: 'string' }, all: { type: 'boolean' }, filter: { type: 'string' } }, HELP);
  if (!args) return;
  const filter = args.string('filter');
  const followIt = args.flag('follow');
  if (followIt && (filter !== undefined || args.flag('all'))) throw new UsageError('-f follows one source without a filter; leave out --filter and --all to follow');
  const count = intOption(args, 'count', 10, 1, 100);
  if (args.flag('all')) {
    args.atMost(0);
    return printStream(connect(args), `kind:event ${filter ?? ''}`, count, args.globals.json);
  }
  const ref = args.atMost(1).required(0, 'the source whose events to show (spout events SRC, or spout events --all)');
  const client = connect(args);
  const source = await resolveSource(client, ref);
  const eventName = args.string('event-name');
  const page = await client.get<ListResponse<EventSummary>>(`/v1/sources/${source.id}/event_summaries`, { limit: count, expand: 'event', event_name: eventName, filter });
  const json = args.globals.json;
  if (json && !followIt) return printJson(page.data);
  const oldestFirst = [...page.data].reverse();
  for (const e of oldestFirst) {
    if (json) printJsonLine(e);
    else out(eventBlock(e));
  }
  if (!followIt) {
    if (!json && page.data.length === 0) out(dim(`No events yet. "spout events ${source.name_slug} -f" waits for them.`));
    return;
  }
  if (!json) out(dim(`Waiting for events of ${source.id}; Ctrl-C stops.`));
  const stop = interruption();
  try {
    await follow(client, source.id, {
      events: true,
      logs: false,
      json: false,
      signal: stop.signal,
      // Resume after the newest shown: nothing emitted in between is missed.
      lastEventId: page.data[0]?.id ?? null,
      printEvent: (e) => {
        if (eventName !== undefined ? e.metadata.name !== eventName : e.metadata.name) return;
        if (json) printJsonLine(e);
        else out(eventBlock(e));
      },
    });
  } finally {
    stop.dispose();
  }
}
