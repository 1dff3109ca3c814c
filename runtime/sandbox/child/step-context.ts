// Worker side of the `$` an action's `run({ steps, $ })` receives: exports, the
// summary, `$.flow.exit`, `$.respond`, the `$.send` destinations and `$.context`.
import type { ActionResult, ActionTarget, HttpResponsePayload, StepSend } from '../../contract/host-protocol';

/** Thrown by `$.flow.exit()`: ends the step (and its workflow) with the reason, not an error. */
class FlowExit {
  constructor(readonly reason: string | null) {}
}

/** What one action invocation collects while it runs. */
export interface StepRun {
  $: Record<string, unknown>;
  /** Turns how `run` ended into the result; rethrows real errors. */
  finish(outcome: { returned: unknown } | { thrown: unknown }): ActionResult;
}

/** Keeps a value only if JSON can carry it to the service (and on to the caller). */
function jsonValue(what: string, value: unknown): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch (err) {
    throw new TypeError(`${what}: the value is not JSON-serialisable (${(err as Error).message})`);
  }
}

/**
 * Builds `$` for one run. `respond` sends an HTTP answer for the run (to the workflow's HTTP
 * caller); `emit` emits an event from the workflow (`$.send.emit`).
 */
export function stepRun(target: ActionTarget, respond: (response: unknown) => HttpResponsePayload, emit: (event: unknown) => void): StepRun {
  const exports: Record<string, unknown> = {};
  const sends: StepSend[] = [];
  let response: HttpResponsePayload | null = null;
  const send = (kind: StepSend['kind']) => (config: unknown) => {
    sends.push({ kind, config: jsonValue(`$.send.${kind}`, config) });
  };
  const $ = {
    export(name: unknown, value: unknown) {
      if (typeof name !== 'string' || name === '') throw new TypeError('$.export(name, value): name must be a non-empty string');
      exports[name] = jsonValue(`$.export("${name}")`, value);
    },
    flow: {
      exit(reason?: unknown): never {
        throw new FlowExit(reason === undefined || reason === null ? null : String(reason));
      },
      // Delays and reruns need a scheduler of workflow runs; refusing is clearer than pretending.
      delay() {
        throw new Error('$.flow.delay is not supported by Spout yet');
      },
      rerun() {
        throw new Error('$.flow.rerun is not supported by Spout yet');
      },
    },
    respond(r: unknown) {
      if (response) throw new Error('$.respond() was already called in this run');
      response = respond(r);
    },
    send: {
      http: send('http'),
      email: send('email'),
      s3: send('s3'),
      sse: send('sse'),
      emit(config: unknown) {
        const c = (config ?? {}) as { raw_event?: unknown };
        emit('raw_event' in c ? c.raw_event : config);
      },
    },
    context: { deadline: target.deadlineMs, JIT: target.jit, run: { runs: 1 }, id: target.runId },
  };
  return {
    $,
    finish(outcome) {
      let exit: ActionResult['exit'] = null;
      let returned: unknown;
      if ('thrown' in outcome) {
        if (!(outcome.thrown instanceof FlowExit)) throw outcome.thrown;
        exit = { reason: outcome.thrown.reason };
      } else returned = outcome.returned;
      return { exports, ret: jsonValue('the return value', returned) ?? null, exit, sends, response };
    },
  };
}
