// The network a component sees in a test: its cassette answers every outgoing call (a call with
// none fails the run, naming `METHOD URL` and the closest recorded call), faults a test asks for
// come first, and under `spout test --record` (SPOUT_TEST_RECORD=1) a call with no recording goes
// out and is added to the cassette file, credentials masked as the service masks them.
import fs from 'node:fs';
import type { NetworkAnswer } from '../contract/host-protocol';
import type { CallRequest, Cassette, NetworkMode, OutgoingCall } from '../contract/network-api';
import { Matcher, requestKey } from '../engine/network/cassette-match';
import type { Masker } from '../engine/network/masker';
import { cassetteSchema } from '../store/cassette-schema';
import { emptyCassette } from '../store/cassette-store';
import type { TestNetwork as Network, TestCall, TestFault } from './public-api';

/** A run made calls no recording answers: offline, that fails the test (the run's result is attached). */
export class UnrecordedCallError extends Error {
  override name = 'UnrecordedCallError';
  /** What the run came to all the same (not enumerable: a test report prints the message, not the whole run). */
  declare readonly result: unknown;
  constructor(message: string, result: unknown) {
    super(message);
    Object.defineProperty(this, 'result', { value: result, enumerable: false });
  }
}

/** Throws an UnrecordedCallError when any of a run's calls had no recording (faults and recordings are fine). */
export function assertRecorded<T extends { calls: TestCall[] }>(result: T): T {
  const misses = result.calls.filter((c) => c.served_by === 'cassette' && c.response === null && c.error !== null);
  if (misses.length === 0) return result;
  const more = misses.length > 1 ? ` (and ${misses.length - 1} more call${misses.length > 2 ? 's' : ''} with no recording)` : '';
  throw new UnrecordedCallError(`${(misses[0] as TestCall).error}${more}`, result);
}

interface Fault {
  method: string | null;
  url: RegExp;
  pattern: string;
  fault: TestFault;
  used: number;
}

/** Reads a cassette file (missing: an empty cassette); a malformed one is an error naming the file and the field. */
export function readCassette(file: string | null): Cassette {
  if (!file || !fs.existsSync(file)) return emptyCassette();
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cassette ${file}: not JSON (${(err as Error).message})`);
  }
  const parsed = cassetteSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`cassette ${file}: ${issue ? `${issue.path.join('.') || '(top)'}: ${issue.message}` : 'not a cassette'}; see docs/testing.md for its format`);
  }
  return parsed.data as Cassette;
}

/** A component's network in a test: its cassette, faults, and (recording) what went out. */
export class TestNetwork implements Network {
  private readonly cassette: Cassette;
  private readonly matcher = new Matcher();
  private faults: Fault[] = [];
  private recorded = 0;

  constructor(
    /** The cassette file: read at load, written when recording. */
    private readonly file: string | null,
    private readonly recording: boolean,
    private readonly masker: Masker,
  ) {
    this.cassette = readCassette(file);
  }

  /** How the host serves calls: from the cassette only, or letting unrecorded ones out while recording. */
  get mode(): NetworkMode {
    return this.recording ? 'replay-or-live' : 'replay';
  }

  fail(pattern: string, fault: TestFault): void {
    const match = /^\s*([A-Za-z]+)\s+(\S.*)$/.exec(pattern);
    const [method, url] = match ? [(match[1] as string).toUpperCase(), match[2] as string] : [null, pattern.trim()];
    if (!/^https?:\/\//.test(url) && !url.startsWith('*')) throw new TypeError(`network.fail(${JSON.stringify(pattern)}): give an absolute URL, optionally after a method and with * for any text ("GET https://api.example.com/orders*")`);
    if (!fault.timeout && !fault.reset && fault.status === undefined) throw new TypeError(`network.fail(${JSON.stringify(pattern)}): say how it fails: { status: 429 }, { timeout: true } or { reset: true }`);
    const regex = new RegExp(
      `^${url
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    this.faults.push({ method, url: regex, pattern, fault, used: 0 });
  }

  reset(): void {
    this.faults = [];
  }

  /** Answers a call the host intercepted: a fault, else the cassette's recording, else why none. */
  answer(request: CallRequest): NetworkAnswer {
    const fault = this.faults.find((f) => (f.method === null || f.method === request.method.toUpperCase()) && f.url.test(request.url) && (f.fault.times === undefined || f.used < f.fault.times));
    if (fault) {
      fault.used++;
      return faultAnswer(fault.fault);
    }
    const masked = this.masker.request(request);
    const found = this.matcher.match(this.cassette, masked);
    if (found) return { response: found.entry.response, entry: found.index, miss: null };
    return { response: null, entry: null, miss: this.missMessage(masked) };
  }

  /** A run's calls as the test sees them (masked); when recording, the live ones with an answer join the cassette file. */
  keep(calls: readonly OutgoingCall[]): TestCall[] {
    const masked = calls.map((c) => this.masker.call(c));
    if (this.recording && this.file) {
      const fresh = masked.filter((c) => c.served_by === 'live' && c.response);
      if (fresh.length > 0) {
        for (const c of fresh) this.cassette.entries.push({ request: c.request, response: c.response as NonNullable<typeof c.response>, recorded_at: Date.now() });
        this.recorded += fresh.length;
        // A temp file renamed into place: a test killed mid-write leaves the old cassette whole.
        fs.writeFileSync(`${this.file}.tmp`, `${JSON.stringify(this.cassette, null, 2)}\n`);
        fs.renameSync(`${this.file}.tmp`, this.file);
      }
    }
    return masked.map(testCall);
  }

  /** Calls recorded into the cassette file so far. */
  get recordedCount(): number {
    return this.recorded;
  }

  /** Why a call has no recording: the closest entry (same method and host first), what differs, and how to record it. */
  private missMessage(request: CallRequest): string {
    const head = `no recording of ${request.method} ${request.url}`;
    const where = this.file ? `cassette ${this.file}` : 'no cassette (cassette: false)';
    const record = 'record it with `spout test --record`, or add an entry to the cassette by hand (docs/testing.md)';
    const entries = this.cassette.entries;
    if (entries.length === 0) return `${head}: ${where} has no entries; ${record}`;
    const scored = entries.map((e, i) => ({ i, e, score: closeness(request, e.request) })).sort((a, b) => b.score - a.score);
    const best = scored[0] as (typeof scored)[number];
    return `${head}: none of the ${entries.length} entries of ${where} matches it; the closest is entry ${best.i}, ${best.e.request.method} ${best.e.request.url} (${differences(request, best.e.request, this.cassette)}); ${record}`;
  }
}

/** The answer a fault gives. */
function faultAnswer(fault: TestFault): NetworkAnswer {
  if (fault.reset) return { response: null, entry: null, miss: null, fault: 'reset' };
  if (fault.timeout) return { response: null, entry: null, miss: null, fault: 'timeout' };
  const headers: Record<string, string> = { ...(fault.headers ?? {}) };
  if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
  const text = fault.body === undefined ? JSON.stringify({ error: `fault injected by the test: ${fault.status}` }) : typeof fault.body === 'string' ? fault.body : JSON.stringify(fault.body);
  if (typeof fault.body !== 'string' && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  const status = fault.status as number;
  return { response: { status, headers, body: text, body_encoding: 'utf8', body_size: Buffer.byteLength(text), body_truncated: false }, entry: null, miss: null, fault: 'response' };
}

/** How alike two requests are: method, host, path segments in common. */
function closeness(a: CallRequest, b: Pick<CallRequest, 'method' | 'url'>): number {
  const [ua, ub] = [safeUrl(a.url), safeUrl(b.url)];
  let score = a.method.toUpperCase() === b.method.toUpperCase() ? 4 : 0;
  if (ua && ub) {
    if (ua.host === ub.host) score += 8;
    const [pa, pb] = [ua.pathname.split('/'), ub.pathname.split('/')];
    for (let i = 0; i < Math.min(pa.length, pb.length) && pa[i] === pb[i]; i++) score += 1;
    if (ua.search === ub.search) score += 1;
  }
  return score;
}

/** What differs between a request and a recorded one, in words. */
function differences(request: CallRequest, entry: CallRequest, cassette: Cassette): string {
  const out: string[] = [];
  if (request.method.toUpperCase() !== entry.method.toUpperCase()) out.push(`method ${request.method} ≠ ${entry.method}`);
  const [ua, ub] = [safeUrl(request.url), safeUrl(entry.url)];
  if (ua && ub) {
    if (ua.origin !== ub.origin) out.push(`host ${ua.origin} ≠ ${ub.origin}`);
    if (ua.pathname !== ub.pathname) out.push(`path ${ua.pathname} ≠ ${ub.pathname}`);
    const ignored = new Set(cassette.matching.ignore_query.map((q) => q.toLowerCase()));
    const query = (u: URL) =>
      [...u.searchParams]
        .filter(([k]) => !ignored.has(k.toLowerCase()))
        .map(([k, v]) => `${k}=${v}`)
        .sort()
        .join('&');
    if (query(ua) !== query(ub)) out.push(`query "${query(ua)}" ≠ "${query(ub)}"`);
  } else if (request.url !== entry.url) out.push(`url ${request.url} ≠ ${entry.url}`);
  if (out.length === 0 && request.body !== entry.body && requestKey(request, cassette) !== requestKey(entry, cassette)) out.push(`body ${clip(request.body)} ≠ ${clip(entry.body)}`);
  if (out.length === 0) out.push('they differ only in how the URL is written');
  return out.join(', ');
}

function clip(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

function safeUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** A recorded call as a test reads it. */
function testCall(c: OutgoingCall): TestCall {
  return {
    request: { method: c.request.method, url: c.request.url, headers: c.request.headers, body: c.request.body },
    response: c.response && { status: c.response.status, headers: c.response.headers, body: c.response.body },
    error: c.error,
    served_by: c.served_by,
    entry: c.entry,
  };
}
