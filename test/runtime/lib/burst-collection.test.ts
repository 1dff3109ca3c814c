// lib/burst-collection.ts: a burst's work brings major collections that a quiet process would not
// have (forced ones: V8 starts its own under allocation pressure or to reduce memory), seen through
// Node's `gc` performance entries: during the burst and at its end.
import assert from 'node:assert/strict';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import { BurstCollection } from '../../../runtime/lib/burst-collection';
import { waitFor } from '../../helpers/service';

/** Counts the major collections from now on, only forced ones by default (V8's own, such as its memory reducer's some seconds after a start, are not forced). */
function majorCollections(forcedOnly = true): { count: () => number; stop: () => void } {
  let count = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { kind, flags } = (entry as unknown as { detail: { kind: number; flags: number } }).detail;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR && (!forcedOnly || (flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) !== 0)) count++;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return { count: () => count, stop: () => observer.disconnect() };
}

describe('BurstCollection', () => {
  it('starts a major collection once `every` units of work have passed', async () => {
    const majors = majorCollections();
    try {
      const burst = new BurstCollection(100);
      burst.note(60);
      burst.note(40);
      await waitFor(() => majors.count() >= 1, 30_000, 'a major collection');
    } finally {
      majors.stop();
    }
  });

  it('collects at the end of a large burst, and not at the end of a small one', async () => {
    const burst = new BurstCollection(100);
    burst.note(99);
    assert.equal(burst.settle(), null, 'a small burst ends without a collection');
    const majors = majorCollections(false);
    try {
      burst.note(50);
      burst.note(60);
      const before = majors.count();
      await burst.settle();
      // The collection that gives memory back is not flagged as forced by V8; its entries come after it.
      await waitFor(() => majors.count() > before, 30_000, "the collection at the burst's end");
    } finally {
      majors.stop();
    }
  });
});
