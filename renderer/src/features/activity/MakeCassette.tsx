import { useState } from 'react';
import type { InvocationView } from '../../../../runtime/contract/invocation-api';
import { messageOf } from '../../api/client';
import { useApp } from '../../app/store';
import { downloadFile } from '../../ui/download';
import { cassetteSkeletonOf } from './invocation-data';

/** The calls of a run no recording answered: listed by discovery mode, or missed in replay. */
export function unansweredCount(record: Pick<InvocationView, 'calls'>): number {
  return record.calls.filter((c) => c.served_by === 'discovery' || (c.served_by === 'cassette' && c.response === null)).length;
}

/**
 * "Make a cassette": downloads the owner's cassette with an entry added for each call the run's
 * cassette lacked (GET /v1/invocations/{id}/cassette-skeleton), a 200 with an empty body to fill
 * in; imported back (Network tab, `spout cassette import`) it answers those calls.
 */
export function MakeCassette({ record }: { record: Pick<InvocationView, 'id' | 'owner_id' | 'calls'> }) {
  const { toast } = useApp();
  const [busy, setBusy] = useState(false);
  const count = unansweredCount(record);
  if (count === 0) return null;
  const make = async () => {
    setBusy(true);
    try {
      const { data, added } = await cassetteSkeletonOf(record.id);
      downloadFile(`${record.owner_id}.cassette.json`, `${JSON.stringify(data, null, 2)}\n`, 'application/json');
      toast(`Downloaded a cassette with ${added} call${added === 1 ? '' : 's'} to fill in`);
    } catch (err) {
      toast(messageOf(err), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className="small" onClick={() => void make()} disabled={busy} title="Download the cassette with an entry for each call no recording answered, to fill in">
      {busy ? 'Making…' : `Make a cassette (${count} call${count === 1 ? '' : 's'})`}
    </button>
  );
}
