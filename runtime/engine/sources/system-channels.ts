// A source's `$errors` and `$logs` channels: its failed runs and its log lines, emitted as events
// of its own only when something listens to them (they are not the source's own events).
import type { InvocationResult } from '../../sandbox/sandbox-options';
import type { LogStore } from '../../store/log-store';
import type { Emission } from '../events/emission';

type SystemChannel = '$errors' | '$logs';

/** Routes sources' failures and log lines to their `$errors` and `$logs` channels. */
export class SystemChannels {
  constructor(
    private readonly emission: Emission,
    private readonly logs: LogStore,
    isSource: (id: string) => boolean,
  ) {
    logs.subscribeAll((sourceId, line) => {
      if (isSource(sourceId)) this.emit(sourceId, '$logs', { level: line.level, message: line.message, invocation_id: line.invocation_id, ts: line.ts });
    });
  }

  /** Logs a failed run or hook, and emits it on the source's `$errors` channel. */
  runFailed(sourceId: string, result: InvocationResult): void {
    const error = result.error as NonNullable<InvocationResult['error']>;
    this.logs.add(sourceId, { level: 'error', message: error.stack ?? error.message, invocation_id: result.invocationId });
    this.emit(sourceId, '$errors', { error: { name: error.name, message: error.message, stack: error.stack ?? null }, invocation_id: result.invocationId, ts: Date.now() });
  }

  private emit(sourceId: string, channel: SystemChannel, data: Record<string, unknown>): void {
    if (!this.emission.isHeard(sourceId, channel)) return;
    const summary = channel === '$errors' ? String((data.error as { message: string }).message) : String(data.message);
    // Failures go to the service's stderr: a log line here would be forwarded to `$logs` again.
    this.emission.accept(sourceId, [{ json: JSON.stringify(data), meta: { name: channel, summary: summary.slice(0, 200) } }]).catch((err: Error) => console.error(`${sourceId} ${channel}: ${err.message}`));
  }
}
