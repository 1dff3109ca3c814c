// Saves of one settings object (Settings → MCP, Limits and retries) that are never dropped: one
// request at a time, and the changes made while one is on its way wait, merged, for the next.

/** A change: the fields to save, or a function of the settings as last saved that answers them (a list edited twice in a row keeps both edits). */
export type SettingsChange<S, P> = P | ((saved: S) => P);

interface Waiting<S, P> {
  change: SettingsChange<S, P>;
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * A queue over `send` (which saves a patch and answers the settings in force). `save(change)`
 * resolves once a request carrying the change was answered, or rejects with its error. Changes
 * queued while a request is on its way go together in the next one, in the order made: later
 * fields win, and a function change sees the ones before it applied. `current` gives the settings
 * a queue starts from when idle (the screen's, polled).
 */
export function createSaveQueue<S extends object, P extends object>(send: (patch: P) => Promise<S>, current: () => S | null): (change: SettingsChange<S, P>) => Promise<void> {
  let waiting: Waiting<S, P>[] = [];
  let running = false;

  const drain = async () => {
    running = true;
    let saved = current();
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      let patch = {} as P;
      // What the settings will be once the changes before this one are saved.
      let view = saved;
      for (const w of batch) {
        const fields = typeof w.change === 'function' ? (view === null ? ({} as P) : w.change(view)) : w.change;
        patch = { ...patch, ...fields };
        view = view === null ? null : ({ ...view, ...fields } as S);
      }
      // Nothing left to change (a later edit put a field back): no request.
      if (Object.keys(patch).length === 0) {
        for (const w of batch) w.resolve();
        continue;
      }
      try {
        saved = await send(patch);
        for (const w of batch) w.resolve();
      } catch (err) {
        for (const w of batch) w.reject(err);
        saved = current();
      }
    }
    running = false;
  };

  return (change) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ change, resolve, reject });
      if (!running) void drain();
    });
}
