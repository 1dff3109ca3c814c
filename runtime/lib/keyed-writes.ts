// Writes kept in order per key (a source's state file): each starts once the one before it for
// that key has ended, whether that one succeeded or not, so the newest version is written last.

/** Writes queued per key, one at a time each. */
export class KeyedWrites {
  private readonly writing = new Map<string, Promise<void>>();

  /** Runs `write` after the key's writes in progress; resolves (or rejects) as it does. */
  queue(key: string, write: () => Promise<void>): Promise<void> {
    const next = (this.writing.get(key) ?? Promise.resolve()).then(write);
    const settled = next.catch(() => undefined);
    this.writing.set(key, settled);
    void settled.then(() => {
      if (this.writing.get(key) === settled) this.writing.delete(key);
    });
    return next;
  }

  /** Waits for the key's writes in progress (ended either way). */
  async settled(key: string): Promise<void> {
    await this.writing.get(key);
  }

  /** Waits for every write in progress. */
  async all(): Promise<void> {
    await Promise.all(this.writing.values());
  }
}
