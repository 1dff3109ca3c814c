// The emits a run's record keeps: the first MAX_RECORDED_EMITS listed, the rest counted, so a
// record's size is bounded whatever the run emitted (docs/api.md, "Invocations").

import type { EmitsOmitted, InvocationEmit } from '../../contract/invocation-api';
import { MAX_RECORDED_EMITS } from '../../contract/limits';

/** Collects one run's emits for its record, in emit order. */
export class RecordedEmits {
  readonly listed: InvocationEmit[] = [];
  private omitted: EmitsOmitted | null = null;

  constructor(private readonly max = MAX_RECORDED_EMITS) {}

  /** True while another emit would be listed (its details are worth building). */
  get listing(): boolean {
    return this.listed.length < this.max;
  }

  /** Lists an emit (while `listing`). */
  add(emit: InvocationEmit): void {
    this.listed.push(emit);
  }

  /** Counts an emit past those listed. */
  count(dropped: boolean): void {
    this.omitted ??= { stored: 0, dropped: 0 };
    if (dropped) this.omitted.dropped++;
    else this.omitted.stored++;
  }

  /** The count of emits not listed, null when none. */
  get omittedCounts(): EmitsOmitted | null {
    return this.omitted;
  }
}
