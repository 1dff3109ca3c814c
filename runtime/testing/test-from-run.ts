// A test written from a recorded run (`spout test --from`, the run view's "Save as test"): a
// node:test file that loads the component, replays what started the run (an HTTP request as the
// component saw it, a timer, a hook) at the run's time, and expects its answer's status, its error
// and the events it stored; the calls it made become the cassette that answers them again.
import { isDeepStrictEqual } from 'node:util';
import type { InvocationView, RecordedRequest, RunTestView } from '../contract/invocation-api';
import type { Cassette, CassetteEntry } from '../contract/network-api';
import { requestKey } from '../engine/network/cassette-match';
import { MASK } from '../props/secret/secret-values';
import { emptyCassette } from '../store/cassette-store';

/** An event the run stored, as the event store keeps it; null when the store no longer has it. */
export type RunEvent = { event: unknown; summary: string | null } | null;

/** What a test is written from: the run, its stored events, the component and how its source is configured. */
export interface RunTestInput {
  run: InvocationView;
  /** The events of the run's emits that were stored, in emit order. */
  events: RunEvent[];
  /** The component's file name (`new-order.mjs`); the test goes beside it. */
  file: string;
  /** The source's configured props as `/v1/sources/{id}` shows them (secrets masked, endpoints as `{endpoint_url}`). */
  configured: Record<string, unknown>;
  /** The source's accounts by id, credentials masked as the recorded calls hold them, for its app props. */
  accounts: Record<string, Record<string, unknown>>;
}

/** A generated test: its files and what it could not reproduce. */
export type GeneratedTest = RunTestView;

/** Request headers a test does not replay: hop-by-hop ones, and those the sender's machine and route set. */
const DROPPED_HEADERS = /^(host|content-length|connection|keep-alive|transfer-encoding|te|upgrade|proxy-connection|user-agent|accept-encoding|x-forwarded-.*)$/i;

/** The host every request of a test arrives at (spout/testing's `http()`). */
const TEST_HOST = 'test.spout.invalid';

/** A run this generator cannot write a test of, with why. */
export class UntestableRun extends Error {}

/** Writes the files of a test that replays `input.run` and expects what it came to then. */
export function testFromRun(input: RunTestInput): GeneratedTest {
  const { run, file } = input;
  if (run.trigger === 'event') throw new UntestableRun(`${run.id} was started by another source's event; spout/testing cannot deliver one yet, so only HTTP, timer, run-now and hook runs become tests`);
  if (run.trigger === 'action') throw new UntestableRun(`${run.id} is an action run; its props are not recorded with it, so write its test with loadAction (docs/testing.md)`);
  const stem = file.replace(/\.[^.]+$/, '');
  const warnings: string[] = [];
  const { props, accounts, httpProp } = configuration(input, warnings);
  const cassette = cassetteOf(run);
  const options: Record<string, unknown> = { now: new Date(run.started_at).toISOString(), ...(Object.keys(props).length ? { props } : {}), ...(Object.keys(accounts).length ? { accounts } : {}) };
  if (!cassette.entries.length) options.cassette = false;
  const { call, replay } = replayOf(run, stem, httpProp, warnings);
  const dropped = run.emits.filter((e) => e.dropped).length;
  if (dropped) warnings.push(`${dropped} emit${dropped === 1 ? ' was' : 's were'} dropped by dedupe (seen in earlier runs); a test starts with an empty dedupe cache and keeps ${dropped === 1 ? 'it' : 'them'}: adjust the expected events`);
  if (run.emits_omitted) warnings.push(`the run's record lists its first ${run.emits.length} emits of ${run.emits.length + run.emits_omitted.stored + run.emits_omitted.dropped}: the test compares the first events only`);
  if (run.status === 'timeout' || run.status === 'crashed') warnings.push(`the run ended by ${run.status === 'timeout' ? 'timing out' : 'crashing'}; the test expects an error`);
  const lines = [
    `// Written by Spout from run ${run.id} of ${input.file} (${describe(run)}, ${options.now}).`,
    "// It replays what started the run, at the run's time, and expects the answer and events of then;",
    cassette.entries.length ? `// the calls the run made answer again from ${stem}.cassette.json (credentials masked).` : '// the run made no outgoing calls, so a call now fails the test.',
    "// The source's hooks do not run first: this.db starts empty.",
    'import { test } from "node:test";',
    'import assert from "node:assert/strict";',
    'import { loadSource } from "spout/testing";',
    '',
    `test(${JSON.stringify(`${describe(run)} as recorded in ${run.id}`)}, async () => {`,
    `  const src = await loadSource(${JSON.stringify(`./${file}`)}, ${literal(options, 2)});`,
    '  try {',
    `    const r = await ${call};`,
    ...expectations(input, replay).map((l) => `    ${l}`),
    '  } finally {',
    '    await src.close();',
    '  }',
    '});',
    '',
  ];
  const files = [{ name: `${stem}.test.mjs`, content: lines.join('\n') }];
  if (cassette.entries.length) files.push({ name: `${stem}.cassette.json`, content: `${JSON.stringify(cassette, null, 2)}\n` });
  return { component: file, files, warnings };
}

/** The test's props and accounts from the source's configuration, and the HTTP prop the request came to. */
function configuration(input: RunTestInput, warnings: string[]) {
  const props: Record<string, unknown> = {};
  const accounts: Record<string, Record<string, unknown>> = {};
  let httpProp: string | null = null;
  for (const [name, value] of Object.entries(input.configured)) {
    const v = value as { endpoint_url?: unknown; authProvisionId?: unknown } | null;
    if (v && typeof v === 'object' && typeof v.endpoint_url === 'string') {
      if (v.endpoint_url === input.run.request?.endpoint_url) httpProp = name;
    } else if (v && typeof v === 'object' && typeof v.authProvisionId === 'string') {
      const fields = input.accounts[v.authProvisionId];
      if (!fields) warnings.push(`app prop ${name}: account ${v.authProvisionId} is gone; give its fields under accounts.${name}`);
      accounts[name] = fields ?? {};
    } else props[name] = value;
  }
  if (Object.values(props).includes(MASK) || Object.keys(accounts).length) {
    warnings.push(`secret props and account credentials are ${MASK} in the test, as in the recorded calls; a call that checks them for real needs its cassette entry`);
  }
  return { props, accounts, httpProp };
}

/** The test's call replaying the run, and for an HTTP run the headers the component will see (to map the recorded events onto). */
function replayOf(run: InvocationView, stem: string, httpProp: string | null, warnings: string[]): { call: string; replay: HttpReplay | null } {
  if (run.trigger === 'hook') return { call: `src.hook(${JSON.stringify(run.hook ?? 'deploy')})`, replay: null };
  if (run.trigger !== 'http') return { call: 'src.timer()', replay: null };
  const request = run.request as RecordedRequest;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (!DROPPED_HEADERS.test(name)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  const text = request.body_encoding === 'base64' ? Buffer.from(request.body, 'base64').toString('utf8') : request.body;
  if (request.body_truncated) warnings.push(`the recorded request body was cut at ${Buffer.byteLength(request.body, request.body_encoding)} of its ${request.body_size} bytes; put the whole body in the test`);
  const body = request.body === '' ? null : request.body_encoding === 'base64' ? `Buffer.from(${JSON.stringify(request.body)}, "base64")` : JSON.stringify(request.body);
  const fields = [`method: ${JSON.stringify(request.method)}`, `path: ${JSON.stringify(`${request.path}${request.query ? `?${request.query}` : ''}`)}`, `headers: ${literal(headers, 6)}`, ...(body ? [`body: ${body}`] : [])];
  const seen = { host: TEST_HOST, ...Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])), ...(text ? { 'content-length': String(Buffer.byteLength(text)) } : {}) };
  const testUrl = httpProp ? `https://${TEST_HOST}/e/${stem}/${httpProp}` : null;
  return { call: `src.http({\n      ${fields.join(',\n      ')},\n    })`, replay: { recorded: request, seen, testUrl } };
}

/** How an HTTP run's recorded events map onto the test's: the request's headers and URL as the test sends them. */
interface HttpReplay {
  recorded: RecordedRequest;
  seen: Record<string, string>;
  testUrl: string | null;
}

/** The assertions: the run's error (or none), its answer's status, and the events it stored. */
function expectations(input: RunTestInput, replay: HttpReplay | null): string[] {
  const { run } = input;
  const out: string[] = [];
  if (run.status === 'ok') out.push('assert.equal(r.error, null, r.error?.stack);');
  else if (run.error && run.status === 'error') out.push(`assert.equal(r.error?.message, ${JSON.stringify(run.error.message)});`);
  else out.push('assert.notEqual(r.error, null);');
  if (run.trigger === 'http' && run.response) out.push(`assert.equal(r.status, ${run.response.status});`);
  const events = input.events;
  if (events.every((e) => e !== null)) {
    const expected = events.map((e) => ({ summary: e!.summary, event: replay ? asReplayed(e!.event, replay) : e!.event }));
    if (
      replay &&
      !isDeepStrictEqual(
        expected.map((e) => e.event),
        events.map((e) => e!.event),
      )
    )
      out.push("// The request's headers and URL in the events are the ones the test sends.");
    out.push(`assert.deepEqual(r.events${firstOnly(input.run)}.map((e) => ({ summary: e.metadata.summary, event: e.event })), ${literal(expected, 4)});`);
  } else {
    out.push('// The event store no longer has every event of the run: only their summaries are compared.');
    out.push(
      `assert.deepEqual(r.events${firstOnly(input.run)}.map((e) => e.metadata.summary), ${literal(
        run.emits.filter((e) => !e.dropped).map((e) => e.summary),
        4,
      )});`,
    );
  }
  return out;
}

/** A recorded event with the request's headers and URL replaced by those the test's request gives the component. */
function asReplayed(value: unknown, replay: HttpReplay): unknown {
  if (typeof value === 'string') {
    const at = replay.recorded.endpoint_url;
    return replay.testUrl && value.startsWith(at) && !/^[\w-]/.test(value.slice(at.length, at.length + 1)) ? replay.testUrl + value.slice(at.length) : value;
  }
  if (Array.isArray(value)) return value.map((v) => asReplayed(v, replay));
  if (value && typeof value === 'object') {
    if (isDeepStrictEqual(value, replay.recorded.headers)) return replay.seen;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asReplayed(v, replay)]));
  }
  return value;
}

/** The run's answered calls as a cassette, replayed in the order they were made. */
function cassetteOf(run: InvocationView): Cassette {
  const cassette = emptyCassette();
  cassette.matching.order = 'sequence';
  for (const c of run.calls) {
    if (c.served_by === 'fault' || c.served_by === 'discovery' || !c.response) continue;
    cassette.entries.push({ request: c.request, response: c.response, recorded_at: run.started_at });
  }
  return cassette;
}

/** `existing` with the entries of `fresh` it lacks (same request and response) added after its own. */
export function mergeCassettes(existing: Cassette, fresh: Cassette): { cassette: Cassette; added: number } {
  const key = (e: CassetteEntry) => `${requestKey(e.request, existing)}\n${JSON.stringify([e.response.status, e.response.body])}`;
  const have = new Set(existing.entries.map(key));
  const added = fresh.entries.filter((e) => !have.has(key(e)));
  return { cassette: { ...existing, entries: [...existing.entries, ...added] }, added: added.length };
}

/** `POST /orders → 200`, `timer`, `deploy hook`. */
function describe(run: InvocationView): string {
  if (run.trigger === 'http' && run.request) return `${run.request.method} ${run.request.path}${run.response ? ` → ${run.response.status}` : ''}`;
  if (run.trigger === 'hook') return `${run.hook ?? 'deploy'} hook`;
  return run.trigger === 'run_now' ? 'run now' : 'timer';
}

/** A value as JavaScript (JSON, keys that are names unquoted), its later lines indented by `indent` spaces. */
function literal(value: unknown, indent: number): string {
  return JSON.stringify(value, null, 2)
    .replace(/^(\s*)"([A-Za-z_$][\w$]*)": /gm, '$1$2: ')
    .replace(/\n/g, `\n${' '.repeat(indent)}`);
}

/** A slice of the test's events as long as the record's list, when the record counted the rest (emits_omitted). */
function firstOnly(run: InvocationView): string {
  return run.emits_omitted ? `.slice(0, ${run.emits.filter((e) => !e.dropped).length})` : '';
}
