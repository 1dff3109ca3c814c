import type { ServerResponse } from 'node:http';
import { problemBody } from './error-statuses';

/** How long a request that arrives while the service is starting waits for it. */
const WAIT_MS = 5_000;
/** Requests held at most; later ones are answered 503 at once. */
const MAX_WAITING = 1_000;
/** Seconds a client is told to wait before trying again (`Retry-After`). */
export const RETRY_AFTER_SECONDS = 2;

/**
 * Holds requests that arrive between `listen` (the port must be known before sources load: their
 * endpoint URLs carry it) and the end of loading sources and workflows. A held request is served
 * once loading ends; one that waited `WAIT_MS` in vain is answered 503 with `Retry-After`, which
 * webhook senders honour.
 */
export class StartupGate {
  private opened = false;
  private readonly waiting = new Set<() => void>();

  constructor(private readonly waitMs = WAIT_MS) {}

  /** Serves the request now if the service is ready, else once it is (or answers 503). */
  pass(res: ServerResponse, serve: () => void): void {
    if (this.opened) return serve();
    if (this.waiting.size >= MAX_WAITING) return unavailable(res);
    const timer = setTimeout(() => {
      this.waiting.delete(resume);
      unavailable(res);
    }, this.waitMs);
    const resume = () => {
      clearTimeout(timer);
      serve();
    };
    this.waiting.add(resume);
  }

  /** Loading is over: serves every held request and every later one at once. */
  open(): void {
    this.opened = true;
    for (const resume of this.waiting) resume();
    this.waiting.clear();
  }
}

function unavailable(res: ServerResponse): void {
  if (res.headersSent) return;
  const body = problemBody(503, `the service is starting and has not loaded its sources yet; retry in ${RETRY_AFTER_SECONDS} s`);
  res.writeHead(503, { 'content-type': 'application/problem+json', 'retry-after': String(RETRY_AFTER_SECONDS) });
  res.end(body);
}
