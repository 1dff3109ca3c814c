// What action steps send with `$.send`: HTTP requests are made once the step has ended (as the
// platform does); email, S3 and SSE sends go nowhere offline and are recorded for the user to see.

import type { SendView } from '../../contract/action-api';
import type { StepSend } from '../../contract/host-protocol';
import { newId } from '../../lib/ids';

/** Sends kept in memory for `GET /v1/outbox`, newest last. */
const KEPT = 1000;
const HTTP_TIMEOUT_MS = 15_000;

/** The log of `$.send`: performs HTTP sends, and keeps every send (what was asked, and for HTTP what came of it). */
export class SendLog {
  private readonly records: SendView[] = [];

  /** Carries out one step's sends, in order; answers their records, as `shown` makes them (masked: they are kept and answered). */
  async perform(runId: string, sends: readonly StepSend[], shown: (record: SendView) => SendView = (record) => record): Promise<SendView[]> {
    const done: SendView[] = [];
    for (const send of sends) {
      const record: SendView = { id: newId('snd'), kind: send.kind, config: send.config, run_id: runId, created_at: Math.floor(Date.now() / 1000) };
      if (send.kind === 'http') record.result = await sendHttp(send.config);
      const kept = shown(record);
      this.records.push(kept);
      done.push(kept);
    }
    if (this.records.length > KEPT) this.records.splice(0, this.records.length - KEPT);
    return done;
  }

  /** Recorded sends, newest first. */
  list(): SendView[] {
    return [...this.records].reverse();
  }
}

/** `$.send.http({method, url, headers, data})`: the answer's status, or the error. */
async function sendHttp(config: unknown): Promise<SendView['result']> {
  const c = (config ?? {}) as { method?: unknown; url?: unknown; headers?: unknown; data?: unknown; body?: unknown };
  if (typeof c.url !== 'string' || !URL.canParse(c.url)) return { error: '$.send.http needs an absolute url' };
  const payload = c.data ?? c.body;
  const headers = new Headers(Object.entries((c.headers ?? {}) as Record<string, unknown>).map(([k, v]): [string, string] => [k, String(v)]));
  let body: string | undefined;
  if (payload !== undefined) {
    body = typeof payload === 'string' ? payload : JSON.stringify(payload);
    if (typeof payload !== 'string' && !headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  try {
    const res = await fetch(c.url, { method: typeof c.method === 'string' ? c.method.toUpperCase() : 'POST', headers, body, signal: AbortSignal.timeout(HTTP_TIMEOUT_MS), redirect: 'manual' });
    await res.body?.cancel();
    return { status: res.status };
  } catch (err) {
    return { error: (err as Error).message };
  }
}
