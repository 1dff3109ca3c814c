// A source loaded for a test: requests to its HTTP interface, timer firings, hooks and a clock the
// test moves, each resolving with what the run emitted (ordered and deduped as the service stores
// it), logged and called, and its error.
import path from 'node:path';
import querystring from 'node:querystring';
import type { EmitPayload, HttpResponsePayload } from '../contract/host-protocol';
import { Deduper } from '../engine/events/dedupe';
import { inEmitOrder } from '../lib/emit-order';
import { parseRequestBody } from '../props/http-interface/request-body';
import { timerEvent } from '../props/timer/timer-spec';
import { EventIdClock } from '../store/event-id';
import { type SourceDb, SourceDbs } from '../store/source-dbs';
import { durationMs } from './durations';
import type { LoadedSource, LoadOptions, SourceResult, TestDb, TestEvent, TestRequest } from './public-api';
import { endpointUrl, openTestComponent, resolveLoad, type TestComponent, type TestInvocation, testError } from './test-component';
import { assertRecorded } from './test-network';
import { testRuntime } from './test-runtime';
import { firingsBetween, timersOf } from './test-schedule';

/** Loads a source for a test: bundled, loaded and configured as a deploy would (its hooks run with `deploy()`). */
export async function loadTestSource(file: string, given: LoadOptions): Promise<LoadedSource> {
  const { file: absolute, options } = resolveLoad(file, given);
  const runtime = testRuntime();
  // Each load starts with an empty db and dedupe cache, kept under its own name in the work folder.
  const name = `load-${++loads}`;
  const db = new SourceDbs(path.join(runtime.workDir, 'db')).of(name);
  const component = await openTestComponent(absolute, options, 'source', db);
  return new TestSource(component, new Deduper(path.join(runtime.workDir, 'dedupe', name)), db);
}

let loads = 0;

class TestSource implements LoadedSource {
  readonly events: TestEvent[] = [];
  private readonly ids = new EventIdClock();
  private readonly loadedAt: number;
  readonly db: TestDb;

  constructor(
    private readonly component: TestComponent,
    private readonly dedupe: Deduper,
    db: SourceDb,
  ) {
    this.loadedAt = component.clock.nowMs;
    this.db = testDb(db);
  }

  get network() {
    return this.component.network;
  }

  readonly clock = {
    now: () => this.component.clock.nowMs,
    advance: async (duration: number | string): Promise<SourceResult[]> => {
      const from = this.component.clock.nowMs;
      const to = from + durationMs(duration);
      const results: SourceResult[] = [];
      // The component's own timers due on the way run first; what they emit or log is a result too.
      const moveTo = async (nowMs: number) => {
        const moved = await this.component.invoke({ kind: 'clock', nowMs });
        if (moved.result.emits.length > 0 || moved.logs.length > 0) results.push(this.outcome(moved));
      };
      for (const { timer, atMs } of firingsBetween(this.timers(), this.loadedAt, from, to)) {
        await moveTo(atMs);
        results.push(await this.run(timerEvent(timer.spec, atMs)));
      }
      await moveTo(to);
      return results;
    },
  };

  async deploy(): Promise<SourceResult> {
    const deployed = await this.hook('deploy');
    if (deployed.error) return deployed;
    const activated = await this.hook('activate');
    return { events: [...deployed.events, ...activated.events], logs: [...deployed.logs, ...activated.logs], calls: [...deployed.calls, ...activated.calls], error: activated.error };
  }

  async hook(name: 'deploy' | 'activate' | 'deactivate'): Promise<SourceResult> {
    return this.outcome(await this.component.invoke({ kind: 'hook', name }));
  }

  async timer(): Promise<SourceResult> {
    const first = this.timers()[0];
    const now = this.component.clock.nowMs;
    return this.run(first ? timerEvent(first.spec, now) : { timestamp: Math.floor(now / 1000) });
  }

  async http(request: TestRequest = {}): Promise<SourceResult> {
    const prop = this.component.props.find((p) => p.type === '$.interface.http');
    if (!prop) throw new Error(`${this.component.file} has no $.interface.http prop: it cannot take HTTP requests (use timer() or hook())`);
    const event = httpEvent(endpointUrl(this.component.file, prop.name), request);
    let response: HttpResponsePayload | null = null;
    const ran = await this.component.invoke({ kind: 'run', eventJson: JSON.stringify(event) }, (r) => {
      response ??= r;
    });
    return this.outcome(ran, answerOf(response, prop.customResponse === true, testError(ran.result.error, this.component.file)));
  }

  async close(): Promise<void> {
    await this.component.close();
  }

  private timers() {
    return timersOf(this.component.props, this.component.values);
  }

  private async run(event: unknown): Promise<SourceResult> {
    return this.outcome(await this.component.invoke({ kind: 'run', eventJson: JSON.stringify(event) }));
  }

  /** What an invocation came to (with an HTTP answer, for `http()`): its emits in emit order and deduped as the service stores them. Throws when a call had no recording. */
  private outcome({ result, logs }: TestInvocation, answer: Pick<SourceResult, 'status' | 'headers' | 'body'> = {}): SourceResult {
    const ordered = inEmitOrder(result.emits);
    const { kept, warnings } = this.dedupe.filter(this.component.id, this.component.valid.dedupe, ordered);
    const events = kept.map((payload) => this.stored(payload));
    this.events.push(...events);
    return assertRecorded({
      ...answer,
      events,
      logs: [...logs, ...warnings.map((message) => ({ level: 'warn' as const, message }))],
      calls: this.component.network.keep(result.calls),
      error: testError(result.error, this.component.file),
    });
  }

  private stored(payload: EmitPayload): TestEvent {
    const { id, ms } = this.ids.next(this.component.clock.nowMs);
    const meta = payload.meta;
    return { event: JSON.parse(payload.json) as unknown, metadata: { id: meta.id ?? id, summary: meta.summary ?? null, ts: meta.ts ?? ms, name: meta.name ?? null } };
  }
}

/** The event a request to the endpoint gives the component, as the `/e/` endpoint builds it. */
function httpEvent(endpoint: string, request: TestRequest): Record<string, unknown> {
  const [pathPart = '/', queryPart = ''] = (request.path ?? '/').split('?', 2) as [string?, string?];
  // Parsed as the endpoint parses it: a repeated key gives an array.
  const query: Record<string, unknown> = { ...querystring.parse(queryPart), ...(request.query ?? {}) };
  const headers: Record<string, string> = { host: new URL(endpoint).host };
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
  const { body } = request;
  let text = '';
  if (typeof body === 'string') text = body;
  else if (body instanceof Uint8Array) text = Buffer.from(body).toString('utf8');
  else if (body !== undefined) {
    text = JSON.stringify(body);
    headers['content-type'] ??= 'application/json';
  }
  if (text) headers['content-length'] = String(Buffer.byteLength(text));
  const search = querystring.stringify(query as querystring.ParsedUrlQueryInput);
  const sub = pathPart.startsWith('/') ? pathPart : `/${pathPart}`;
  return {
    method: (request.method ?? (body === undefined ? 'GET' : 'POST')).toUpperCase(),
    path: sub,
    query,
    client_ip: '127.0.0.1',
    url: `${endpoint}${sub === '/' ? '' : sub}${search ? `?${search}` : ''}`,
    headers,
    bodyRaw: text,
    body: parseRequestBody(headers['content-type'] ?? '', text),
  };
}

/** The answer the caller gets: what `respond()` sent, else the service's own (200, or 502 for a custom-response endpoint that did not respond). */
function answerOf(response: HttpResponsePayload | null, custom: boolean, error: SourceResult['error']): Pick<SourceResult, 'status' | 'headers' | 'body'> {
  if (response) {
    const r = response as HttpResponsePayload;
    const text = r.body === null ? '' : typeof r.body === 'string' ? r.body : Buffer.from(r.body).toString('utf8');
    return { status: r.status, headers: r.headers, body: bodyOf(text) };
  }
  if (custom) {
    const detail = `the source did not respond: ${error ? `its run failed: ${error.message}` : 'its run ended without calling respond()'}`;
    return { status: 502, headers: { 'content-type': 'application/problem+json' }, body: { status: 502, title: 'Bad Gateway', detail } };
  }
  return { status: 200, headers: { 'content-type': 'application/json' }, body: { success: true } };
}

function bodyOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** `this.db` as the test reads and sets it (values through JSON, as the component's are). */
function testDb(db: SourceDb): TestDb {
  return {
    get: (key) => {
      const json = db.entries()[key];
      return json === undefined ? undefined : (JSON.parse(json) as unknown);
    },
    set: (key, value) => {
      const json = value === undefined ? null : JSON.stringify(value);
      if (json === undefined) throw new TypeError(`db.set(${JSON.stringify(key)}): the value is not JSON`);
      // The host's copy is replaced before its next run (the db's version moved); the write to disk is the work folder's.
      db.apply([[key, json]]).catch((err: Error) => process.stderr.write(`spout/testing: db.set(${JSON.stringify(key)}): ${err.message}\n`));
    },
    keys: () => Object.keys(db.entries()),
  };
}
