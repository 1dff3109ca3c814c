// The order a run's events are stored in: with `ts` on every one, oldest first; otherwise as emitted.

/** With a numeric `ts` on every emit, the emits sorted oldest first (a stable sort); otherwise as they are. */
export function inEmitOrder<T extends { meta: { ts?: number } }>(emits: readonly T[]): readonly T[] {
  return emits.every((e) => typeof e.meta.ts === 'number') ? [...emits].sort((a, b) => (a.meta.ts as number) - (b.meta.ts as number)) : emits;
}
