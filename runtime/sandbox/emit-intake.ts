// One running invocation's emits as its host sends them, batch by batch (host-protocol.ts
// `run-emits`, then the last batch in `done`): each batch checked against the run's limits
// across batches, then handed on (a deployed source's are stored as they come) or collected for
// the result. The first batch that breaks a limit is refused with every batch after it; the
// batches before it stay handed on.
import type { EmitPayload, HostMessage, HostReply } from '../contract/host-protocol';
import { checkEmitBatch } from './run-checks';
import type { PendingInvocation } from './sandbox-options';

/** Receives a batch of invocation `invocationId`'s emits, in emit order; the host's next batch waits until it settles. */
export type EmitsHandler = (emits: EmitPayload[], invocationId: string) => Promise<unknown>;

/** Batches of one invocation's emits, checked and handed on. */
export class EmitIntake {
  /** Bytes and count of the events let through so far. */
  private bytes = 0;
  private count = 0;
  /** Why the run's emits from event `count` on were refused; null while none were. */
  private problem: string | null = null;
  /** Batches let through when there is no handler, for the result. */
  private readonly collected: EmitPayload[][] = [];

  constructor(
    private readonly onEmits: EmitsHandler | undefined,
    private readonly invocationId = '',
  ) {}

  /** True while a batch is being handed on: the run's timeout waits for the service then, as it does for the hosts' budget. */
  handing = false;

  /**
   * Takes a `run-emits` batch and calls `ack` once it is handed on (a handler's failure is its own
   * to report) or refused (`log` is told why, once); the promise settles then too.
   */
  take(emits: EmitPayload[], ack: () => void, log: (refusal: string) => void): Promise<void> {
    const refusal = this.check(emits);
    if (refusal !== null) log(refusal);
    if (this.problem === null && !this.onEmits) this.collected.push(emits);
    if (this.problem !== null || !this.onEmits) return Promise.resolve().then(ack);
    this.handing = true;
    return this.onEmits(emits, this.invocationId).then(
      () => this.acked(ack),
      () => this.acked(ack),
    );
  }

  private acked(ack: () => void): void {
    this.handing = false;
    ack();
  }

  /**
   * Takes the last batch (the one in `done`): the emits for the result, why the run's emits were
   * refused (its error), and whether that is news (a refusal of this batch, not logged yet).
   */
  finish(emits: EmitPayload[]): { emits: EmitPayload[]; refusal: string | null; fresh: boolean } {
    const fresh = this.check(emits) !== null;
    const last = this.problem === null ? emits : [];
    const all = this.collected.length === 0 ? last : this.collected.concat([last]).flat();
    return { emits: all, refusal: this.refusal(), fresh };
  }

  /** Checks a batch while none was refused; answers the refusal when this one is the first. */
  private check(emits: EmitPayload[]): string | null {
    if (this.problem !== null) return null;
    const { problem, bytes } = checkEmitBatch(emits, this.bytes, this.count);
    if (problem === null) {
      this.bytes += bytes;
      this.count += emits.length;
      return null;
    }
    this.problem = problem;
    return this.refusal();
  }

  /** What was refused and why; null while nothing was. */
  private refusal(): string | null {
    if (this.problem === null) return null;
    return this.count === 0 ? `nothing this run emitted was stored: ${this.problem}` : `the events this run emitted from event ${this.count} on were not stored: ${this.problem}`;
  }
}

/** Takes a `run-emits` batch of `running` (the running invocation it names; undefined: none is, and the batch is dropped) and acks it once handed on. */
export function takeRunEmits(host: { send(message: HostMessage): void }, reply: HostReply & { type: 'run-emits' }, running: PendingInvocation | undefined, log: (refusal: string) => void): Promise<void> | void {
  const ack = () => host.send({ type: 'emits-ack', invocationId: reply.invocationId });
  if (!running) return ack();
  running.intake ??= new EmitIntake(running.onEmits, reply.invocationId);
  return running.intake.take(reply.emits, ack, log);
}

/** The emits a run's result holds once its last batch came (in `done`), and why its emits were refused (its error) if they were; `log` is told a new refusal. */
export function resultEmits(intake: EmitIntake | undefined, emits: EmitPayload[], log: (refusal: string) => void): { emits: EmitPayload[]; refusal: string | null } {
  const taken = (intake ?? new EmitIntake(undefined)).finish(emits);
  if (taken.fresh && taken.refusal) log(taken.refusal);
  return taken;
}
