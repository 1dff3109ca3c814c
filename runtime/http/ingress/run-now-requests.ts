// Requests "run now" sends to a source's own endpoint (POST /v1/sources/{id}/run): each carries a
// token the endpoint handler hands the run it starts back by, so the API answers with that run's
// record, or knows that the endpoint refused the request before any run started.
import { randomUUID } from 'node:crypto';
import type { HttpEndpoint } from '../../engine/endpoints/http-endpoints';

/** What an endpoint's run resolves with: the run's record. */
type EndpointRun = ReturnType<HttpEndpoint['run']>;

/** Request header carrying a run-now request's token; never passed to the component nor recorded. */
export const RUN_NOW_HEADER = 'x-spout-run-now';

/** A run-now request about to be sent, waiting for the run it starts. */
export interface ExpectedRun {
  /** The RUN_NOW_HEADER value to send. */
  token: string;
  /** The run the request started, once the endpoint handler took it; undefined while (or if) none did. */
  run(): EndpointRun | undefined;
  /** Stops waiting (the request was answered, or could not be sent). */
  forget(): void;
}

/** Run-now requests on their way to the endpoint handler, by token. */
export class RunNowRequests {
  private readonly waiting = new Map<string, (run: EndpointRun) => void>();

  /** A token for a request about to be sent. */
  expect(): ExpectedRun {
    const token = randomUUID();
    let started: EndpointRun | undefined;
    this.waiting.set(token, (run) => (started = run));
    return { token, run: () => started, forget: () => void this.waiting.delete(token) };
  }

  /** Called by the endpoint handler as it starts a run: a request carrying an expected token hands the run over (other values are ignored). */
  started(token: string | string[] | undefined, run: EndpointRun): void {
    const take = typeof token === 'string' ? this.waiting.get(token) : undefined;
    if (!take) return;
    this.waiting.delete(token as string);
    take(run);
  }
}
