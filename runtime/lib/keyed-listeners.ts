/** Listeners of something per key (a source's new log lines, its new runs). */
export class KeyedListeners<T> {
  private readonly byKey = new Map<string, Set<(value: T) => void>>();

  /** Calls `listener` with each value emitted for `key`; returns the unsubscribe function. */
  add(key: string, listener: (value: T) => void): () => void {
    const set = this.byKey.get(key) ?? new Set();
    set.add(listener);
    this.byKey.set(key, set);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.byKey.get(key) === set) this.byKey.delete(key);
    };
  }

  /** Whether `key` has a listener. */
  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** Hands `value` to the listeners of `key`. */
  emit(key: string, value: T): void {
    for (const listener of this.byKey.get(key) ?? []) listener(value);
  }
}
