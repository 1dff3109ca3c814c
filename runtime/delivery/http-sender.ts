import { Agent, request } from 'undici';

/** What one POST to a webhook URL came to. */
export interface SendOutcome {
  status_code: number | null;
  duration_ms: number;
  response_body: string | null;
  error: string | null;
}

/** Response bodies are kept up to this many bytes in the attempt log. */
export const RESPONSE_BODY_LIMIT = 20 * 1024;

/** Posts webhook messages over pooled keep-alive connections; redirects are never followed. */
export class HttpSender {
  private readonly agent = new Agent({ keepAliveTimeout: 10_000, connect: { timeout: 10_000 } });

  constructor(private readonly timeoutMs: number) {}

  /** POSTs `body` with `headers`; never throws, failures come back in `error`. */
  async post(url: string, headers: Record<string, string>, body: string): Promise<SendOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const res = await request(url, {
        method: 'POST',
        headers,
        body,
        dispatcher: this.agent,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        if (size < RESPONSE_BODY_LIMIT) chunks.push(chunk);
        size += chunk.length;
      }
      const text = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8');
      return { status_code: res.statusCode, duration_ms: elapsed(), response_body: text, error: null };
    } catch (err) {
      const e = err as Error & { code?: string; cause?: { code?: string; message?: string } };
      const timedOut = e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT';
      const message = timedOut
          ? `no response within ${this.timeoutMs / 1000} s`
          : [e.code ?? e.cause?.code, e.cause?.message ?? e.message].filter(Boolean).join(': ');
      return { status_code: null, duration_ms: elapsed(), response_body: null, error: message };
    }
  }

  /** Aborts requests in flight and closes pooled connections. */
  async close(): Promise<void> {
    await this.agent.destroy();
  }
}
