import { ErrorText } from './ErrorText';

/** What a resource's page shows until the resource is read: the problem that stopped the read, or "Loading…". */
export function LoadState({ error }: { error: string | null | undefined }) {
  return error ? <ErrorText text={error} /> : <p className="empty">Loading…</p>;
}
