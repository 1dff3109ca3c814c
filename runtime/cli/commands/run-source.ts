import type { InvocationView } from '../../contract/invocation-api';
import type { ListResponse } from '../../contract/page';
import type { RunNowInput, RunRequestView, SavedPayload } from '../../contract/run-request-api';
import type { EventSummary, LogLineView, RunNowView } from '../../contract/source-api';
import { unansweredCalls } from '../../engine/network/cassette-skeleton';
import type { ApiClient } from '../../remote/api-client';
import { type Args, parse } from '../support/args';
import { bold, dim, eventBlock, logLine, note, out, printJson, red, table } from '../support/output';
import { optionText } from '../support/prop-prompts';
import { resolveSource } from '../support/resolve';
import { UsageError } from '../support/usage';
import { writeRunSkeleton } from './cassette';
import { connect } from './common';

export const HELP = `Usage: spout run SRC [--payload NAME | --sample] [--body TEXT|@file] [--method M] [--path /p?q=1] [--header "Name: value"]…
       spout run SRC --list-payloads
       spout send SRC [--sample] […]   (spout run with --http: always a request to the endpoint)
       spout run SRC --skeleton FILE   (also write the run's unanswered calls as a cassette to fill in)

Runs a deployed source now (as the UI's Run now does) and prints what the run logged and emitted.
A source with an HTTP interface is sent a request to its endpoint, through the same path a real
request takes: the last request it received (or, if none ever came, POST / with the JSON body {}),
changed by the options below; its answer is printed first. A source with a timer runs with its
timer's event (one with both: --http sends a request instead). Exits 1 when the run failed. SRC is
the source's id, name slug, or a unique prefix of either.

Options:
  --payload NAME       send the saved test payload NAME (the UI's "Save as payload")
  --sample             send the component's sample event (its sampleEmit, a registry source's
                       test-event.mjs) as a JSON POST
  --body TEXT|@file    the request body (JSON or any text), or a file's content
  --method M           the request method (POST, GET, …)
  --path /p?q=1        the sub-path after the endpoint, and a query string
  --header "N: v"      set a header over the request's own (repeatable)
  --http               send a request, on a source that has a timer too
  --timer              run with the timer's event, on a source that has an HTTP interface too
  --skeleton FILE      add the calls of the run no recording answered (every call, in network
                       mode "discover") to the cassette FILE as entries to fill in, as
                       "spout cassette skeleton INVOCATION FILE" does
  --list-payloads      list the source's saved test payloads and exit
`;

export async function run(argv: string[]): Promise<void> {
  const args = parse(
    argv,
    {
      payload: { type: 'string' },
      sample: { type: 'boolean' },
      body: { type: 'string' },
      method: { type: 'string' },
      path: { type: 'string' },
      header: { type: 'string', multiple: true },
      http: { type: 'boolean' },
      timer: { type: 'boolean' },
      'list-payloads': { type: 'boolean' },
      skeleton: { type: 'string' },
    },
    HELP,
  );
  if (!args) return;
  const ref = args.atMost(1).required(0, 'the source to run (spout run SRC)');
  if (args.flag('http') && args.flag('timer')) throw new UsageError('give --http or --timer, not both');
  const client = connect(args);
  const source = await resolveSource(client, ref);
  if (args.flag('list-payloads')) return listPayloads(client, source.id, args.globals.json);
  const input = await runInput(client, source.id, args);
  const { data: result } = await client.post<{ data: RunNowView }>(`/v1/sources/${source.id}/run`, input);
  const emitted = new Set(result.emitted);
  const events = emitted.size ? (await client.get<ListResponse<EventSummary>>(`/v1/sources/${source.id}/event_summaries`, { limit: Math.min(100, emitted.size + 10), expand: 'event' })).data.filter((e) => emitted.has(e.id)).reverse() : [];
  const logs = (await client.get<ListResponse<LogLineView>>(`/v1/sources/${source.id}/logs`, { limit: 100 })).data.filter((l) => l.invocation_id === result.invocation_id).reverse();
  if (args.globals.json) printJson({ ...result, events, logs });
  else {
    const { request, response } = result;
    if (request) out(dim(`${request.method} ${request.endpoint_url}${request.path === '/' ? '' : request.path}${request.query ? `?${request.query}` : ''}`));
    if (response) out(`${bold(`HTTP ${response.status}`)} ${response.body_encoding === 'utf8' ? response.body : `(${response.body_size} bytes)`}`);
    for (const l of logs) out(logLine(l));
    for (const e of events) out(eventBlock(e));
    // The answer lists the events its run's record lists, and counts the rest.
    const count = emitted.size + (result.emits_omitted?.stored ?? 0);
    out(result.error ? `${red('failed')} ${result.error.name}: ${result.error.message}` : `Ran ${bold(source.id)} (${source.name_slug}): ${count} event${count === 1 ? '' : 's'} emitted`);
  }
  await reportUnanswered(client, result.invocation_id, args.string('skeleton'));
  if (result.error) process.exitCode = 1;
}

/** Writes the run's unanswered calls to the --skeleton file, or, when it made some, names the command that would. */
async function reportUnanswered(client: ApiClient, invocationId: string, skeleton: string | undefined): Promise<void> {
  const { data: run } = await client.get<{ data: InvocationView }>(`/v1/invocations/${encodeURIComponent(invocationId)}`);
  const count = unansweredCalls([run]).length;
  if (count === 0) {
    if (skeleton) note(`${run.id} made no call its cassette could not answer: ${skeleton} is unchanged (network mode "discover" lists every call)`);
    return;
  }
  if (skeleton) return writeRunSkeleton(run, skeleton);
  note(dim(`${count} call${count === 1 ? '' : 's'} had no recording: "spout cassette skeleton ${run.id} FILE" writes them as a cassette to fill in (or run with --skeleton FILE)`));
}

/** What the options ask of `POST /v1/sources/{id}/run`; `--header`s are set over the request's own headers (the payload's, or the last request's). */
async function runInput(client: ApiClient, sourceId: string, args: Args): Promise<RunNowInput> {
  const input: RunNowInput = {};
  if (args.flag('timer')) input.trigger = 'timer';
  if (args.flag('http')) input.trigger = 'http';
  const payload = args.string('payload');
  if (payload !== undefined) input.payload = payload;
  if (args.flag('sample')) {
    if (payload !== undefined) throw new UsageError('give --payload or --sample, not both');
    input.sample = true;
  }
  const body = args.string('body');
  if (body !== undefined) input.body = optionText('--body', body);
  const method = args.string('method');
  if (method !== undefined) input.method = method;
  const target = args.string('path');
  if (target !== undefined) {
    const at = target.indexOf('?');
    const path = at === -1 ? target : target.slice(0, at);
    input.path = path.startsWith('/') ? path : `/${path}`;
    input.query = at === -1 ? '' : target.slice(at + 1);
  }
  const headerLines = args.strings('header');
  if (headerLines.length > 0) {
    const base = payload !== undefined ? (await client.get<{ data: SavedPayload }>(`/v1/sources/${sourceId}/payloads/${encodeURIComponent(payload)}`)).data.headers : (await client.get<{ data: RunRequestView }>(`/v1/sources/${sourceId}/run/request`)).data.request.headers;
    input.headers = withHeaders(base, headerLines);
  }
  return input;
}

/** `headers` with each `Name: value` line set over the header of that name (any case). */
function withHeaders(headers: Record<string, string | string[]>, lines: string[]): Record<string, string | string[]> {
  const out = { ...headers };
  for (const line of lines) {
    const at = line.indexOf(':');
    if (at <= 0) throw new UsageError(`--header "${line}": write it as "Name: value"`);
    const name = line.slice(0, at).trim();
    for (const key of Object.keys(out)) if (key.toLowerCase() === name.toLowerCase()) delete out[key];
    out[name] = line.slice(at + 1).trim();
  }
  return out;
}

/** Prints a source's saved test payloads, newest first. */
async function listPayloads(client: ApiClient, sourceId: string, json: boolean): Promise<void> {
  const { data } = await client.get<ListResponse<SavedPayload>>(`/v1/sources/${sourceId}/payloads`, { limit: 100 });
  if (json) return printJson(data);
  if (data.length === 0) return out(`No saved payloads for ${sourceId}: save one in the UI (Run now, "Save as payload") or with POST /v1/sources/${sourceId}/payloads`);
  out(
    table(
      ['NAME', 'REQUEST', 'BODY'],
      data.map((p) => [p.name, `${p.method} ${p.path}${p.query ? `?${p.query}` : ''}`, `${Buffer.byteLength(p.body)} bytes`]),
    ),
  );
}
