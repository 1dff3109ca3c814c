import { type FormEvent, useEffect, useState } from 'react';
import type { RunNowInput } from '../../../../runtime/contract/run-request-api';
import type { RunNowView, SourceView } from '../../../../runtime/contract/source-api';
import { messageOf, ServiceUnreachable, useConnection } from '../../api/client';
import { useApp } from '../../app/store';
import { Modal } from '../../ui/ConfirmDialog';
import { InvocationDetail } from '../activity/InvocationDetail';
import { editsOfDraft, type RequestDraft, RequestFields, requestDraft, requestOfDraft } from '../activity/RequestFields';
import { deletePayload, runWithRequest, savePayload, useRunRequest } from './run-request-data';

/** What a run now came to, as the toast says it. */
export function ranMessage(r: RunNowView): { text: string; kind: 'ok' | 'error' } {
  if (r.error) return { text: `Run failed: ${r.error.name}: ${r.error.message}`, kind: 'error' };
  return { text: `Ran: ${r.emitted.length} event${r.emitted.length === 1 ? '' : 's'} emitted`, kind: 'ok' };
}

/** The "Start from" choice of the component's sample event (no payload name can start with a dot). */
const SAMPLE = '.sample';

/**
 * Run now on a source with an HTTP interface: the request it sends to the endpoint, prefilled with
 * the last request received (or the default, or a saved payload picked), editable; "Save as
 * payload" keeps it in the source's library; Send runs it and shows the run's record.
 */
export function RunRequestDialog({ source, onClose }: { source: SourceView; onClose(): void }) {
  const { toast } = useApp();
  const reachable = useConnection((c) => c.reachable);
  const { view, payloads, error, reload } = useRunRequest(source.id);
  const [draft, setDraft] = useState<RequestDraft | null>(null);
  /** The draft is the last request, whose body is binary or was cut: sent as recorded until one is typed. */
  const [asRecorded, setAsRecorded] = useState(false);
  const [picked, setPicked] = useState('');
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<'send' | 'save' | 'delete' | null>(null);
  const [result, setResult] = useState<RunNowView | null>(null);

  const startFrom = (value: string) => {
    const payload = payloads.find((p) => p.name === value);
    const sample = value === SAMPLE && view?.sample ? { method: 'POST', path: '/', query: '', headers: { 'content-type': 'application/json' }, body: view.sample } : undefined;
    const from = payload ?? sample ?? view?.request;
    if (!from) return;
    setPicked(value);
    if (payload) setName(payload.name);
    setDraft(requestDraft(from));
    setAsRecorded(!payload && !sample && (view?.body_as_recorded ?? false));
  };
  // The form starts from the request the service would send.
  useEffect(() => {
    if (view && !draft) startFrom('');
  }, [view, draft]);

  /** The request to send: the draft (a recorded body left out unless retyped); none loaded yet, the service's own choice. */
  const input = (): RunNowInput => (!draft ? { trigger: 'http' } : asRecorded ? editsOfDraft(draft) : requestOfDraft(draft));

  const act = async (what: 'send' | 'save' | 'delete', fn: () => Promise<void>) => {
    setProblem(null);
    setBusy(what);
    try {
      await fn();
    } catch (err) {
      if (err instanceof ServiceUnreachable) toast(`${what === 'send' ? 'Run now' : what === 'save' ? 'Saving the payload' : 'Deleting the payload'} was not sent: the service is not answering.`, 'error');
      else setProblem(messageOf(err));
    } finally {
      setBusy(null);
    }
  };
  const send = (e: FormEvent) => {
    e.preventDefault();
    void act('send', async () => {
      const r = await runWithRequest(source.id, input());
      setResult(r);
      await reload();
      const { text, kind } = ranMessage(r);
      toast(text, kind);
    });
  };
  const sendSample = () =>
    void act('send', async () => {
      const r = await runWithRequest(source.id, { sample: true });
      setResult(r);
      await reload();
      const { text, kind } = ranMessage(r);
      toast(text, kind);
    });
  const save = () =>
    void act('save', async () => {
      if (!draft) return;
      const saved = await savePayload(source.id, name.trim(), requestOfDraft(draft));
      await reload();
      setPicked(saved.name);
      toast(`Saved payload "${saved.name}"`);
    });
  const remove = () =>
    void act('delete', async () => {
      await deletePayload(source.id, picked);
      await reload();
      startFrom('');
      toast(`Deleted payload "${picked}"`);
    });

  const lastLabel = view?.from === 'last_request' ? 'Last request received' : view?.from === 'sample' ? 'Sample event of the component (POST)' : 'Default request (POST {})';
  return (
    <Modal labelledBy="run-request-title" className="dialog wide" onClose={onClose}>
      <form className="form run-request-form" onSubmit={send} aria-label="Request to send">
        <h2 id="run-request-title">Run now: send a request</h2>
        <p className="muted small-note">
          Sent to <code>{source.id}</code>&apos;s endpoint as a real request is, and recorded as a run.
        </p>
        {!view && <p className="muted">{error ?? (reachable ? 'Loading the last request…' : 'Not loaded: the service is not answering.')}</p>}
        <div className="row">
          <div className="field grow">
            <label htmlFor="run-payload">Start from</label>
            <select id="run-payload" value={picked} onChange={(e) => startFrom(e.target.value)} disabled={!view}>
              <option value="">{lastLabel}</option>
              {view?.sample && view.from === 'last_request' && <option value={SAMPLE}>Sample event of the component (POST)</option>}
              {payloads.map((p) => (
                <option key={p.name} value={p.name}>
                  Saved: {p.name}
                </option>
              ))}
            </select>
          </div>
          {picked && picked !== SAMPLE && (
            <button type="button" className="small danger-outline" onClick={remove} disabled={busy !== null}>
              Delete payload
            </button>
          )}
        </div>
        {draft && (
          <>
            <RequestFields idPrefix="run" draft={draft} onChange={setDraft} bodyNote={asRecorded ? "The last request's body is binary or was cut when recorded: it is sent as received unless you type a new one here." : undefined} />
            <div className="row">
              <div className="field grow">
                <label htmlFor="run-payload-name">Payload name</label>
                <input id="run-payload-name" value={name} placeholder="new order" onChange={(e) => setName(e.target.value)} />
              </div>
              <button type="button" onClick={save} disabled={busy !== null || name.trim() === '' || (asRecorded && !draft.bodyEdited)}>
                {busy === 'save' ? 'Saving…' : 'Save as payload'}
              </button>
            </div>
          </>
        )}
        {problem && (
          <p className="field-error" role="alert">
            {problem}
          </p>
        )}
        <div className="row end">
          <button type="button" onClick={onClose}>
            Close
          </button>
          {view?.sample && (
            <button type="button" onClick={sendSample} disabled={busy !== null} title="POST the component's sampleEmit (test-event.mjs) to the endpoint">
              Send sample event
            </button>
          )}
          <button type="submit" className="primary" disabled={busy !== null}>
            {busy === 'send' ? 'Sending…' : 'Send'}
          </button>
        </div>
      </form>
      {result && (
        <section className="run-request-result" aria-label="Run result" data-testid="run-request-result">
          <InvocationDetail key={result.invocation_id} id={result.invocation_id} sourceId={source.id} headingLevel={3} />
        </section>
      )}
    </Modal>
  );
}
