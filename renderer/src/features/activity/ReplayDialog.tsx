import { useState, type FormEvent } from 'react';
import { messageOf } from '../../api/client';
import type { InvocationView, ReplayEdits } from '../../../../runtime/contract/invocation-api';
import { headerLines, parseHeaderLines } from '../../ui/header-lines';
import { Modal } from '../../ui/ConfirmDialog';
import { replayInvocation } from './invocation-data';

/**
 * "Replay with edits": the recorded request (method, path, query, headers, body) or, for other
 * triggers, the event, prefilled and editable; the run goes against the source's current code.
 */
export function ReplayDialog({ record, onReplayed, onClose }: { record: InvocationView; onReplayed(r: InvocationView): void; onClose(): void }) {
  const request = record.request;
  const binary = request?.body_encoding === 'base64';
  const [method, setMethod] = useState(request?.method ?? 'POST');
  const [path, setPath] = useState(request?.path ?? '/');
  const [query, setQuery] = useState(request?.query ?? '');
  const [headers, setHeaders] = useState(request ? headerLines(request.headers) : '');
  const [body, setBody] = useState(request && !binary ? request.body : '');
  const [bodyEdited, setBodyEdited] = useState(false);
  const [event, setEvent] = useState(() => JSON.stringify(record.event ?? null, null, 2));
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    let edits: ReplayEdits;
    try {
      if (request) {
        edits = { method: method.trim(), path: path.startsWith('/') ? path : `/${path}`, query: query.replace(/^\?/, ''), headers: parseHeaderLines(headers) };
        // An untouched body is sent as recorded (bytes, binary too); an edited one as the text typed.
        if (bodyEdited) edits.body = body;
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
        {request ? (
          <>
            <div className="row">
              <div className="field">
                <label htmlFor="replay-method">Method</label>
                <input id="replay-method" className="mono" size={8} value={method} onChange={(e) => setMethod(e.target.value)} data-autofocus />
              </div>
              <div className="field grow">
                <label htmlFor="replay-path">Path</label>
                <input id="replay-path" className="mono" value={path} onChange={(e) => setPath(e.target.value)} />
              </div>
            </div>
            <div className="field">
              <label htmlFor="replay-query">Query string</label>
              <input id="replay-query" className="mono" value={query} placeholder="a=1&b=2" onChange={(e) => setQuery(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="replay-headers">Headers (one per line)</label>
              <textarea id="replay-headers" className="mono" rows={6} value={headers} onChange={(e) => setHeaders(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="replay-body">Body</label>
              {binary && !bodyEdited && <p className="muted small-note" id="replay-body-note">The recorded body is binary ({request.body_size} bytes): it is sent as recorded unless you type a new one here.</p>}
              {request.body_truncated && !bodyEdited && <p className="muted small-note">Only the first bytes of the body were recorded: give the body to send.</p>}
              <textarea
                id="replay-body"
                className="mono"
                rows={8}
                value={body}
                aria-describedby={binary ? 'replay-body-note' : undefined}
                onChange={(e) => {
                  setBody(e.target.value);
                  setBodyEdited(true);
                }}
              />
            </div>
          </>
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
