// The transport of the UI's /v1 calls: same-origin fetch signed in by the session cookie (never
// an API key in the page), problem+json answers as ApiError, and whether the service answers.
import { create } from 'zustand';
import type { VersionConflictView } from '../../../runtime/contract/change-api';
import type { InvocationView } from '../../../runtime/contract/invocation-api';
import type { FieldProblem, Problem } from '../../../runtime/contract/problem';
import type { UiRequestHeader } from '../../../runtime/contract/settings-api';

/** An error answered by /v1, with its `detail` and, for validation errors, every problem. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldProblem[] = [],
    /** Warnings found beside the errors (a 400 for an invalid component lists them too). */
    readonly warnings: FieldProblem[] = [],
    /** A 409 for a save based on an older version: both versions and who made the current one. */
    readonly conflict: VersionConflictView | null = null,
    /** A failed deploy's hook run: its logs and calls, kept nowhere else. */
    readonly run: InvocationView | null = null,
  ) {
    super(message);
  }
}

/** The service did not answer at all (stopped, restarting, network down): not an error of the request. */
export class ServiceUnreachable extends Error {
  constructor() {
    super(`The Spout service at ${window.location.host} is not answering; retrying.`);
  }
}

/** Whether the service answered the last request; the app shows a banner while it does not. */
export const useConnection = create<{ reachable: boolean; since: number | null }>(() => ({ reachable: true, since: null }));

/** Notes whether the last call got an answer. */
export function markReachable(reachable: boolean): void {
  const now = useConnection.getState();
  if (now.reachable !== reachable) useConnection.setState({ reachable, since: reachable ? null : Date.now() });
}

/** Sent on every call: the service refuses a session-cookie write without it (CSRF, see docs/security.md). */
export const UI_HEADER: UiRequestHeader = 'x-spout-ui';

/** Query parameters of a call; empty ones are left out. */
export type Query = Record<string, string | number | undefined | null>;

function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** One /v1 call: JSON in and out; a problem+json answer throws ApiError, no answer ServiceUnreachable. */
export async function request<T>(method: string, path: string, body?: unknown, query?: Query): Promise<T> {
  let res: Response;
  try {
    res = await fetch(withQuery(path, query), {
      method,
      credentials: 'same-origin',
      headers: { accept: 'application/json', [UI_HEADER]: '1', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    // fetch rejects only when no answer came ("Failed to fetch"): say what that means.
    markReachable(false);
    throw new ServiceUnreachable();
  }
  markReachable(true);
  if (!res.ok) {
    const problem = (await res.json().catch(() => null)) as Partial<Problem> | null;
    throw new ApiError(res.status, problem?.detail ?? `${res.status} ${res.statusText}`, problem?.errors ?? [], problem?.warnings ?? [], problem?.conflict ?? null, problem?.run ?? null);
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * A message for any thrown value. With `labels` (parameter → the form's label), a validation error
 * names each field as the form labels it ("URL: must be…") instead of by its API parameter.
 */
export function messageOf(err: unknown, labels?: Record<string, string>): string {
  if (labels && err instanceof ApiError && err.errors.length) return err.errors.map((e) => (e.path ? `${labels[e.path] ?? e.path}: ${e.message}` : e.message)).join(' ');
  return err instanceof Error ? err.message : String(err);
}
