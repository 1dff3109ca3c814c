// Things opened once per key on first use (a source's stores after a start): one opening shared by
// all who wait for it, and the keys nobody asked for opened one at a time in the background.

/** Opens each key once, on demand or in a background pass; a failed opening is tried again by the next to ask. */
export class KeyedOpening {
  private readonly opens = new Map<string, Promise<void>>();
  private readonly done = new Set<string>();
  /** Keys whose things were removed: the background pass passes them by. */
  private readonly forgotten = new Set<string>();
  private pass: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly openKey: (key: string) => Promise<void>) {}

  /** Opens `key` unless it is open or opening; resolves once it is open. */
  ready(key: string): Promise<void> {
    let opening = this.opens.get(key);
    if (!opening) {
      const mine = this.openKey(key);
      this.opens.set(key, (opening = mine));
      mine.then(
        () => this.opens.get(key) === mine && this.done.add(key),
        () => this.opens.get(key) === mine && this.opens.delete(key),
      );
    }
    return opening;
  }

  /** A promise to wait on while `key` is not open yet (opening it now), or null once it is: an open key costs its callers no await. */
  pending(key: string): Promise<void> | null {
    return this.done.has(key) ? null : this.ready(key);
  }

  /** Whether `key` has begun opening (on demand or in the background). */
  started(key: string): boolean {
    return this.opens.has(key);
  }

  /**
   * Opens `keys` one after another (one asked for meanwhile is opened once, not twice); `settled`
   * resolves when all are. A key that fails to open is passed to `onError`.
   */
  inBackground(keys: readonly string[], onError: (key: string, err: Error) => void): void {
    this.pass = (async () => {
      for (const key of keys) {
        // Opening reads files synchronously: each key waits for a turn of the event loop, so
        // requests that arrived meanwhile are served between keys, not after them all.
        await new Promise((resolve) => setImmediate(resolve));
        if (this.stopped) return;
        if (this.forgotten.has(key)) continue;
        await this.ready(key).catch((err: Error) => onError(key, err));
      }
    })();
  }

  /** Ends the background pass and resolves once no opening is under way (before what they open is closed). */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([this.pass, ...this.opens.values()]);
  }

  /** Resolves once the background pass, if any, has opened everything. */
  settled(): Promise<void> {
    return this.pass;
  }

  /** Forgets a key (its things were removed): the background pass passes it by, and a later `ready` opens it afresh. */
  forget(key: string): void {
    this.opens.delete(key);
    this.done.delete(key);
    this.forgotten.add(key);
  }
}
