import type { ListResponse } from '../../contract/page';
import type { EventSummary } from '../../contract/source-api';
import { intOption, parse } from '../support/args';
import { follow, interruption } from '../support/follow';
import { dim, eventBlock, out, printJson, printJsonLine } from '../support/output';
import { resolveSource } from '../support/resolve';
import { connect } from './common';

export const HELP = `Usage: spout events SRC [-n N] [-f]

Prints the latest events of a deployed source, oldest first. SRC is the source's id, name slug, or
a unique prefix of either.

Options:
  -n, --count N        how many of the latest events (default 10, at most 100)
  -f, --follow         then print new events as they are emitted, until Ctrl-C
  --event-name NAME    events of that channel instead of the default one

With --json: a JSON array of the events, newest first (as GET /v1/sources/{id}/event_summaries);
with -f, one JSON event per line instead, oldest first.
`;

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, { count: { type: 'string', short: 'n' }, follow: { type: 'boolean', short: 'f' }, 'event-name': { type: 'string' } }, HELP);
  if (!args) return;
  const ref = args.atMost(1).required(0, 'the source whose events to show (spout events SRC)');
  const count = intOption(args, 'count', 10, 1, 100);
  const client = connect(args);
  const source = await resolveSource(client, ref);
  const eventName = args.string('event-name');
  const page = await client.get<ListResponse<EventSummary>>(`/v1/sources/${source.id}/event_summaries`, { limit: count, expand: 'event', event_name: eventName });
  const json = args.globals.json;
  const followIt = args.flag('follow');
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
