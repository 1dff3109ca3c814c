import type { InvocationView } from '../../contract/invocation-api';
import type { ListResponse } from '../../contract/page';
import { intOption, parse } from '../support/args';
import { interruption } from '../support/follow';
import { dim, invocationLine, out, printJson, printJsonLine } from '../support/output';
import { resolveSource } from '../support/resolve';
import { connect } from './common';

export const HELP = `Usage: spout invocations SRC [-n N] [-f] [--failed] [--trigger T] [--search TEXT]

Lists the latest recorded runs of a source, oldest first: when, how it ended, what started it (an
HTTP request's method, path and answer; a timer; a hook), how long it took, what it emitted, and
its error. "spout replay ID" runs one again. SRC is the source's id, name slug, or a unique prefix
of either.

Options:
  -n, --count N        how many of the latest runs (default 10, at most 100)
  -f, --follow         then print new runs as they are recorded, until Ctrl-C
  --failed             only runs that did not end well (error, timeout, crashed)
  --trigger T          only runs started by T: http, timer, run_now, event, hook
  --search TEXT        only runs whose request, answer, logs, event or error contain TEXT

With --json: a JSON array of the runs, newest first (as GET /v1/sources/{id}/invocations); with -f,
one JSON run per line instead, oldest first.
`;

const FAILED = ['error', 'timeout', 'crashed'];

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, { count: { type: 'string', short: 'n' }, follow: { type: 'boolean', short: 'f' }, failed: { type: 'boolean' }, trigger: { type: 'string' }, search: { type: 'string' } }, HELP);
  if (!args) return;
  const ref = args.atMost(1).required(0, 'the source whose runs to show (spout invocations SRC)');
  const count = intOption(args, 'count', 10, 1, 100);
  const client = connect(args);
  const source = await resolveSource(client, ref);
  const failed = args.flag('failed');
  const wanted = (r: InvocationView) => !failed || FAILED.includes(r.status);
  // The API filters one status at a time: for --failed, take a full page and filter here.
  const page = await client.get<ListResponse<InvocationView>>(`/v1/sources/${source.id}/invocations`, {
    limit: failed ? 100 : count,
    trigger: args.string('trigger'),
    q: args.string('search'),
  });
  const shown = page.data.filter(wanted).slice(0, count);
  const json = args.globals.json;
  const followIt = args.flag('follow');
  if (json && !followIt) return printJson(shown);
  for (const r of [...shown].reverse()) {
    if (json) printJsonLine(r);
    else out(invocationLine(r));
  }
  if (!followIt) {
    if (!json && shown.length === 0) out(dim(`No runs recorded${failed ? ' that failed' : ''}. Send a request to its endpoint, or "spout run ${source.name_slug}".`));
    return;
  }
  if (!json) out(dim(`Waiting for runs of ${source.id}; Ctrl-C stops.`));
  const trigger = args.string('trigger');
  const search = args.string('search')?.toLowerCase();
  const stop = interruption();
  try {
    await client.stream(`/sse/dc/${encodeURIComponent(source.id)}/invocations`, {
      signal: stop.signal,
      lastEventId: page.data[0]?.id ?? null,
      onMessage: (m) => {
        const r = JSON.parse(m.data) as InvocationView;
        if (!wanted(r) || (trigger && r.trigger !== trigger) || (search && !m.data.toLowerCase().includes(search))) return;
        if (json) printJsonLine(r);
        else out(invocationLine(r));
      },
    });
  } finally {
    stop.dispose();
  }
}
