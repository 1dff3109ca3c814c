import { type FormEvent, useState } from 'react';
import type { InvocationView, ReplayEdits } from '../../../../runtime/contract/invocation-api';
import { messageOf } from '../../api/client';
import { Modal } from '../../ui/ConfirmDialog';
import { replayInvocation } from './invocation-data';
import { editsOfDraft, type RequestDraft, RequestFields, requestDraft } from './RequestFields';

/**
 * "Replay with edits": the recorded request (method, path, query, headers, body) or, for other
 * triggers, the event, prefilled and editable; the run goes against the source's current code.
 */
export function ReplayDialog({ record, onReplayed, onClose }: { record: InvocationView; onReplayed(r: InvocationView): void; onClose(): void }) {
  const request = record.request;
  const binary = request?.body_encoding === 'base64';
  const [draft, setDraft] = useState<RequestDraft | null>(() => (request ? requestDraft({ ...request, body: binary ? '' : request.body }) : null));
  const [event, setEvent] = useState(() => JSON.stringify(record.event ?? null, null, 2));
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    let edits: ReplayEdits;
    try {
      if (draft) {
        edits = editsOfDraft(draft);
      } else {
        try {
          edits = { event: JSON.parse(event) as unknown };
        } catch (err) {
          throw new Error(`Event: not valid JSON (${(err as Error).message})`);
        }
      }
    } catch (err) {
      setError(messageOf(err));
      return;
    }
    setSending(true);
    try {
      onReplayed(await replayInvocation(record.id, edits));
    } catch (err) {
      setError(messageOf(err));
      setSending(false);
    }
  };

  return (
    <Modal labelledBy="replay-title" className="dialog wide" onClose={onClose}>
      <form className="form replay-form" onSubmit={(e) => void submit(e)}>
        <h2 id="replay-title">Replay with edits</h2>
        <p className="muted small-note">Runs against the source&apos;s current code and is recorded as a new run (replay of {record.id}).</p>
        {request && draft ? (
          <RequestFields
            idPrefix="replay"
            draft={draft}
            onChange={setDraft}
            bodyNote={binary ? `The recorded body is binary (${request.body_size} bytes): it is sent as recorded unless you type a new one here.` : request.body_truncated ? 'Only the first bytes of the body were recorded: give the body to send.' : undefined}
          />
        ) : (
          <div className="field">
            <label htmlFor="replay-event">Event (JSON)</label>
            <textarea id="replay-event" className="mono" rows={12} value={event} onChange={(e) => setEvent(e.target.value)} data-autofocus />
          </div>
        )}
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="row end">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={sending}>
            {sending ? 'Replaying…' : 'Replay'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
