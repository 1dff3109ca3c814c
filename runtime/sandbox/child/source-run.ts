// A source's invocation by its HTTP endpoint, timer or run-now.

type Emit = (event: unknown, meta: unknown) => void;

/** Runs a source's `run(event)` with `this`; a source without `run` emits the event that triggered it, as on Pipedream (the registry's schedule sources). */
export async function runSource(run: unknown, self: Record<string, unknown>, event: unknown, emit: Emit): Promise<void> {
  if (typeof run === 'function') await (run as (e: unknown) => unknown).call(self, event);
  else emit(event, {});
}
