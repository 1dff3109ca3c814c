// Garbage collections during and after a burst of work (a run emitting 200 000 events). V8 sizes
// its heap for throughput: during a burst the heap grows by the garbage of the work and, once the
// thread goes quiet (a backlog then delivered by the delivery thread), it is kept, since V8
// collects the old generation only under allocation pressure and keeps its grown young
// generation. A desktop tool should cost what it is doing: docs/performance.md has the measured
// effect (issue 44, row f).
// Node offers no call for one collection without `--expose-gc` at start, so the flag is set here
// and `gc` taken from a fresh context, as Jest's leak detector does. At a burst's end the
// inspector's `HeapProfiler.collectGarbage` runs instead: it also gives memory back (the young
// generation shrinks); during the burst it costs too much (runs measured 50% slower).
import { Session } from 'node:inspector';
import v8 from 'node:v8';
import vm from 'node:vm';

type Collect = (options: { type: 'major'; execution: 'async' }) => Promise<void>;

let collect: Collect | null = null;
let session: Session | null = null;

/** V8's `gc`, exposed once for this process. */
function collector(): Collect {
  if (!collect) {
    v8.setFlagsFromString('--expose-gc');
    collect = vm.runInNewContext('gc') as Collect;
  }
  return collect;
}

/** A collection that gives memory back to the system, through an in-process inspector session; resolves once it is done. */
function collectAndShrink(): Promise<void> {
  if (!session) {
    session = new Session();
    session.connect();
  }
  const inspector = session;
  return new Promise((resolve) => inspector.post('HeapProfiler.collectGarbage', () => resolve()));
}

/** Counts a burst's work: a major collection each time `every` units have passed, and one that gives memory back at its end. */
export class BurstCollection {
  private since = 0;
  private burst = 0;

  constructor(private readonly every: number) {}

  /** Notes `units` of work done; starts a collection (it runs alongside, incrementally) once `every` have passed. */
  note(units: number): void {
    this.since += units;
    this.burst += units;
    if (this.since < this.every) return;
    this.since = 0;
    void collector()({ type: 'major', execution: 'async' });
  }

  /** Ends a burst: if it was large (`every` units or more), collects and gives memory back after the current turn; resolves once done (null: no collection). */
  settle(): Promise<void> | null {
    const large = this.burst >= this.every;
    this.burst = 0;
    return large ? new Promise((resolve) => setImmediate(() => resolve(collectAndShrink()))) : null;
  }
}
