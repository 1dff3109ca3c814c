import type { SnapshotOwner } from './public-api';

/** Compares a value with its snapshot. */
export function matchSnapshot(owner: SnapshotOwner, value: unknown, name?: string): void {
  throw new Error(`matchSnapshot(${String(owner)}, ${typeof value}, ${name}) is being written`);
}
