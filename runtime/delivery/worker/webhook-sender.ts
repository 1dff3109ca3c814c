import type { LookupFunction } from 'node:net';
import { Pool } from 'undici';
import { guardedConnector } from '../../lib/guarded-agent';
import { refusedConnection } from './connection-rule';

/** What one POST to a webhook URL came to. */
export interface SendOutcome {
  status_code: number | null;
  duration_ms: number;
  response_body: string | null;
  /** Names in lower case; a repeated header's values joined with ", ". */
  response_headers: Readonly<Record<string, string>> | null;
  error: string | null;
}

/** Response bodies are kept up to this many bytes in the attempt log. */
export const RESPONSE_BODY_LIMIT = 20 * 1024;

/** Pools idle this long are closed; webhooks come and go. */
const POOL_IDLE_MS = 60_000;

/**
 * Posts webhook messages over keep-alive connection pools, one per origin (and per Connect project
 * whose end users' webhooks stay off this machine); redirects are never followed. Each new
 * connection is checked once, by the address it reached (connection-rule.ts): requests on a kept-alive
 * connection cost nothing more.
 */
export class HttpSender {
  /** This service's port, which no delivery connection may reach on this machine (0 while unknown). */
  servicePort = 0;
  private readonly pools = new Map<string, { pool: Pool; used: number }>();
  private readonly targets = new Map<string, { origin: string; path: string }>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly headerRecords = new HeaderRecords();

  /** `timeoutMs` may change while it runs (the settings' delivery timeout): each request reads it. */
  constructor(
    public timeoutMs: number,
    /** How host names resolve (a test's own lookup; else the system's). */
    private readonly lookup?: LookupFunction,
  ) {
    this.sweeper = setInterval(() => this.sweep(), POOL_IDLE_MS);
    this.sweeper.unref();
  }

  /**
   * POSTs `body` with `headers`; never throws, failures come back in `error`. Uses undici's
   * dispatch handler directly: no response stream is built, which is most of what a request costs
   * beyond the socket. A request not done within the timeout is aborted and reported as such.
   * `endUserProject`: the Connect project whose end user set the webhook and which keeps such
   * webhooks off this machine, else null.
   */
  post(url: string, headers: Record<string, string>, body: string, endUserProject: string | null = null): Promise<SendOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise<SendOutcome>((resolve) => {
      let settled = false;
      let abort: ((reason: Error) => void) | null = null;
      const settle = (outcome: SendOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve(outcome);
      };
      const timeoutMessage = `no response within ${this.timeoutMs / 1000} s`;
      const fail = (error: Error) => {
        const err = error as Error & { code?: string; cause?: { code?: string; message?: string } };
        const timedOut = err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT';
        const message = timedOut ? timeoutMessage : [err.code ?? err.cause?.code, err.cause?.message ?? err.message].filter(Boolean).join(': ');
        settle({ status_code: null, duration_ms: elapsed(), response_body: null, response_headers: null, error: message });
      };
      // The timeout covers the whole request (connecting, waiting, reading a slow body), not each phase.
      const deadline = setTimeout(() => {
        settle({ status_code: null, duration_ms: elapsed(), response_body: null, response_headers: null, error: timeoutMessage });
        abort?.(new Error(timeoutMessage));
      }, this.timeoutMs);
      let target: { pool: Pool; path: string };
      try {
        target = this.target(url, endUserProject);
      } catch (err) {
        return fail(err as Error);
      }
      let status = 0;
      let size = 0;
      let responseHeaders: Readonly<Record<string, string>> = {};
      const chunks: Buffer[] = [];
      target.pool.dispatch(
        { method: 'POST', path: target.path, headers, body, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs },
        {
          onConnect: (abortRequest) => {
            if (settled) abortRequest(new Error(timeoutMessage));
            else abort = abortRequest;
          },
          onHeaders: (statusCode, rawHeaders) => {
            status = statusCode;
            responseHeaders = this.headerRecords.of(rawHeaders);
            return true;
          },
          onData: (chunk) => {
            if (size < RESPONSE_BODY_LIMIT) chunks.push(chunk);
            size += chunk.length;
            return true;
          },
          onComplete: () => {
            // Most receivers answer with an empty body: concatenating no chunks and decoding nothing cost 0.5 µs.
            const text = chunks.length === 0 ? '' : (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8');
            settle({ status_code: status, duration_ms: elapsed(), response_body: text, response_headers: responseHeaders, error: null });
          },
          onError: fail,
        },
      );
    });
  }

  /** Aborts requests in flight and closes every pool. */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.pools.values()].map((p) => p.pool.destroy()));
    this.pools.clear();
  }

  /** The pool and request path for a URL; URLs repeat (one per webhook), so parsing is cached. */
  private target(url: string, endUserProject: string | null): { pool: Pool; path: string } {
    let parsed = this.targets.get(url);
    if (!parsed) {
      const u = new URL(url);
      parsed = { origin: u.origin, path: u.pathname + u.search };
      if (this.targets.size > 1000) this.targets.clear();
      this.targets.set(url, parsed);
    }
    const key = endUserProject === null ? parsed.origin : `${endUserProject} ${parsed.origin}`;
    let entry = this.pools.get(key);
    if (!entry) {
      const rule = (address: string, port: number) => refusedConnection(address, port, { servicePort: this.servicePort, endUserProject });
      const connect = guardedConnector(rule, { timeout: 10_000, ...(this.lookup ? { lookup: this.lookup } : {}) });
      entry = { pool: new Pool(parsed.origin, { keepAliveTimeout: 10_000, connect }), used: 0 };
      this.pools.set(key, entry);
    }
    entry.used = Date.now();
    return { pool: entry.pool, path: parsed.path };
  }

  private sweep(): void {
    const cutoff = Date.now() - POOL_IDLE_MS;
    for (const [key, entry] of this.pools) {
      if (entry.used < cutoff) {
        this.pools.delete(key);
        void entry.pool.close();
      }
    }
  }
}

type RawHeaders = Buffer[] | string[] | null | undefined;

/**
 * Raw header pairs (`[name, value, name, value, …]`) as records with lower-case names, the same
 * record again while the raw bytes repeat: one receiver's answers mostly carry the same headers
 * (its date changes once a second), and comparing their bytes costs a tenth of decoding them into
 * a new record, which the attempt log then serialises once more (outbox.ts keeps the last one's JSON).
 * Records are shared, so never changed.
 */
export class HeaderRecords {
  /** The bytes the last record was made from (copies: undici's buffers may be reused). */
  private lastRaw: Buffer[] = [];
  private last: Readonly<Record<string, string>> = {};

  /** The record of one response's raw headers. */
  of(raw: RawHeaders): Readonly<Record<string, string>> {
    if (!raw || raw.length === 0) return EMPTY;
    if (typeof raw[0] !== 'string' && sameBytes(raw as Buffer[], this.lastRaw)) return this.last;
    const record = headerRecord(raw);
    if (typeof raw[0] !== 'string') {
      this.lastRaw = (raw as Buffer[]).map((part) => Buffer.from(part));
      this.last = record;
    }
    return record;
  }
}

const EMPTY: Readonly<Record<string, string>> = Object.freeze({});

function sameBytes(raw: Buffer[], last: Buffer[]): boolean {
  if (raw.length !== last.length) return false;
  for (let i = 0; i < raw.length; i++) {
    const a = raw[i] as Buffer;
    const b = last[i] as Buffer;
    const n = a.length;
    if (n !== b.length) return false;
    // A loop over a few dozen bytes beats a native call (Buffer#equals) per part.
    for (let j = 0; j < n; j++) if (a[j] !== b[j]) return false;
  }
  return true;
}

/** Raw header pairs as a record with lower-case names; a repeated header's values joined with ", ". */
function headerRecord(raw: Buffer[] | string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    // A header name is a token (the parser refuses anything else), so ASCII: latin1 reads it as
    // UTF-8 would, for a third of the cost.
    const name = text(raw[i] as Buffer | string, 'latin1').toLowerCase();
    const value = text(raw[i + 1] as Buffer | string, 'utf8');
    out[name] = out[name] === undefined ? value : `${out[name]}, ${value}`;
  }
  return out;
}

function text(part: Buffer | string, encoding: 'latin1' | 'utf8'): string {
  return typeof part === 'string' ? part : part.toString(encoding);
}
