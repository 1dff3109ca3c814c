// Waiting for work to end, but not for ever.

/** Resolves once every promise has settled, or after `ms`, whichever is first. */
export async function settleWithin(promises: readonly Promise<unknown>[], ms: number): Promise<void> {
  if (promises.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([Promise.allSettled(promises), waited]);
  clearTimeout(timer);
}
