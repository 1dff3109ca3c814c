// Building invocation records: bodies kept exactly (up to a limit), errors with their mapped
// stacks, and the status a result comes to.
import type { InvocationError, InvocationStatus, InvocationView, RecordedBody } from '../../contract/invocation-api';
import type { InvocationResult } from '../../sandbox/sandbox-options';

/** Bytes of a request or response body kept in a record; the size is kept beyond it. */
export const RECORDED_BODY_LIMIT = 256 * 1024;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A body as recorded: UTF-8 text when it is, else base64; cut at the limit. */
export function recordBody(raw: Buffer | Uint8Array | string | null, limit = RECORDED_BODY_LIMIT): RecordedBody {
  if (raw === null) return { body: '', body_encoding: 'utf8', body_size: 0, body_truncated: false };
  const bytes = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const kept = bytes.length > limit ? bytes.subarray(0, limit) : bytes;
  const truncated = kept.length < bytes.length;
  try {
    // A cut can split a character: it is text if the whole was.
    const text = truncated ? (strictUtf8.decode(bytes), kept.toString('utf8')) : strictUtf8.decode(kept);
    return { body: text, body_encoding: 'utf8', body_size: bytes.length, body_truncated: truncated };
  } catch {
    return { body: kept.toString('base64'), body_encoding: 'base64', body_size: bytes.length, body_truncated: truncated };
  }
}

/** The bytes of a recorded body (only whole bodies can be sent again). */
export function bodyBytes(recorded: RecordedBody): Buffer {
  return Buffer.from(recorded.body, recorded.body_encoding);
}

/** How a result ended. */
export function statusOf(result: Pick<InvocationResult, 'error' | 'failure'>): InvocationStatus {
  if (result.failure) return result.failure;
  return result.error ? 'error' : 'ok';
}

/** The error of a result as recorded. */
export function errorOf(result: Pick<InvocationResult, 'error'>): InvocationError | null {
  const e = result.error;
  return e ? { name: e.name, message: e.message, stack: e.stack ?? null, full_stack: e.fullStack ?? e.stack ?? null } : null;
}

/** A record with the fields every trigger has; the caller fills in the rest. */
export function baseRecord(id: string, ownerId: string, trigger: InvocationView['trigger'], startedAt: number): InvocationView {
  return {
    id,
    owner_id: ownerId,
    trigger,
    hook: null,
    started_at: startedAt,
    duration_ms: Date.now() - startedAt,
    status: 'ok',
    request: null,
    response: null,
    event: null,
    listened_to: null,
    logs: [],
    emits: [],
    emits_omitted: null,
    calls: [],
    error: null,
    result: null,
    replay_of: null,
    via: null,
  };
}
