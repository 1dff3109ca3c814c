// Work that must not interleave per key (two updates of one source): each waits for the one before.

/** Runs tasks one at a time per key, in the order they were given; keys are independent. */
export class KeyedTurns {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `task` once every earlier task of `key` has settled; resolves or rejects as it does. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const mine = before.then(task, task);
    const tail = mine.catch(() => undefined);
    this.tails.set(key, tail);
    // The last task of a key forgets it, so the map holds only keys with work under way.
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return mine;
  }
}
