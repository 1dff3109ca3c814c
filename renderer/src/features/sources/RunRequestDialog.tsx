import { useEffect, useState, type FormEvent } from 'react';
import type { RunNowInput, RunRequest } from '../../../../runtime/contract/run-request-api';
import type { RunNowView, SourceView } from '../../../../runtime/contract/source-api';
import { messageOf, ServiceUnreachable, useConnection } from '../../api/client';
import { useApp } from '../../app/store';
import { Modal } from '../../ui/ConfirmDialog';
import { headerLines, parseHeaderLines } from '../../ui/header-lines';
import { InvocationDetail } from '../activity/InvocationDetail';
import { deletePayload, runWithRequest, savePayload, useRunRequest } from './run-request-data';

/** The request as the form edits it; `recordedBody`: the last request's body is binary or cut, and goes as recorded until one is typed. */
interface Draft {
  method: string;
  /** The sub-path and query string, as `/orders?x=1`. */
  target: string;
  headers: string;
  body: string;
  recordedBody: boolean;
}

function draftOf(request: RunRequest, recordedBody = false): Draft {
  return { method: request.method, target: `${request.path}${request.query ? `?${request.query}` : ''}`, headers: headerLines(request.headers), body: request.body, recordedBody };
}

/** The draft as a request; throws (naming the field) on headers that cannot be read. */
function requestOf(draft: Draft): RunRequest {
  const at = draft.target.indexOf('?');
  const path = at === -1 ? draft.target : draft.target.slice(0, at);
  return { method: draft.method.trim().toUpperCase(), path: path.startsWith('/') ? path : `/${path}`, query: at === -1 ? '' : draft.target.slice(at + 1), headers: parseHeaderLines(draft.headers), body: draft.body };
}

/** What a run now came to, as the toast says it. */
export function ranMessage(r: RunNowView): { text: string; kind: 'ok' | 'error' } {
  if (r.error) return { text: `Run failed: ${r.error.name}: ${r.error.message}`, kind: 'error' };
  return { text: `Ran: ${r.emitted.length} event${r.emitted.length === 1 ? '' : 's'} emitted`, kind: 'ok' };
}

/**
 * Run now on a source with an HTTP interface: the request it sends to the endpoint, prefilled with
 * the last request received (or the default, or a saved payload picked), editable; "Save as
 * payload" keeps it in the source's library; Send runs it and shows the run's record.
 */
export function RunRequestDialog({ source, onClose }: { source: SourceView; onClose(): void }) {
  const { toast } = useApp();
  const reachable = useConnection((c) => c.reachable);
  const { view, payloads, error, reload } = useRunRequest(source.id);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [picked, setPicked] = useState('');
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<'send' | 'save' | 'delete' | null>(null);
  const [result, setResult] = useState<RunNowView | null>(null);

  // The form starts from the request the service would send.
  useEffect(() => {
    if (view && !draft) setDraft(draftOf(view.request, view.body_as_recorded));
  }, [view, draft]);

  const edit = (change: Partial<Draft>) => draft && setDraft({ ...draft, ...change });
  const pick = (value: string) => {
    setPicked(value);
    const payload = payloads.find((p) => p.name === value);
    if (payload) {
      setDraft(draftOf(payload));
      setName(payload.name);
    } else if (view) setDraft(draftOf(view.request, view.body_as_recorded));
  };

  /** The request to send: the draft (a recorded body left out unless retyped); none loaded yet, the service's own choice. */
  const input = (): RunNowInput => {
    if (!draft) return { trigger: 'http' };
    const request: RunNowInput = requestOf(draft);
    if (draft.recordedBody) delete request.body;
    return request;
  };

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
  const save = () =>
    void act('save', async () => {
      if (!draft) return;
      const saved = await savePayload(source.id, name.trim(), requestOf(draft));
      await reload();
      setPicked(saved.name);
      toast(`Saved payload "${saved.name}"`);
    });
  const remove = () =>
    void act('delete', async () => {
      await deletePayload(source.id, picked);
      await reload();
      pick('');
      toast(`Deleted payload "${picked}"`);
    });

  const lastLabel = view?.from === 'last_request' ? 'Last request received' : 'Default request (POST {})';
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
            <select id="run-payload" value={picked} onChange={(e) => pick(e.target.value)} disabled={!view}>
              <option value="">{lastLabel}</option>
              {payloads.map((p) => (
                <option key={p.name} value={p.name}>
                  Saved: {p.name}
                </option>
              ))}
            </select>
          </div>
          {picked && (
            <button type="button" className="small danger-outline" onClick={remove} disabled={busy !== null}>
              Delete payload
            </button>
          )}
        </div>
        {draft && (
          <>
            <div className="row">
              <div className="field">
                <label htmlFor="run-method">Method</label>
                <input id="run-method" className="mono" size={8} value={draft.method} onChange={(e) => edit({ method: e.target.value })} data-autofocus />
              </div>
              <div className="field grow">
                <label htmlFor="run-target">Path and query</label>
                <input id="run-target" className="mono" value={draft.target} placeholder="/orders?x=1" onChange={(e) => edit({ target: e.target.value })} />
              </div>
            </div>
            <div className="field">
              <label htmlFor="run-headers">Headers (one per line)</label>
              <textarea id="run-headers" className="mono" rows={4} value={draft.headers} onChange={(e) => edit({ headers: e.target.value })} />
            </div>
            <div className="field">
              <label htmlFor="run-body">Body</label>
              {draft.recordedBody && <p className="muted small-note">The last request&apos;s body is binary or was cut when recorded: it is sent as received unless you type a new one here.</p>}
              <textarea id="run-body" className="mono" rows={8} value={draft.body} onChange={(e) => edit({ body: e.target.value, recordedBody: false })} />
            </div>
            <div className="row">
              <div className="field grow">
                <label htmlFor="run-payload-name">Payload name</label>
                <input id="run-payload-name" value={name} placeholder="new order" onChange={(e) => setName(e.target.value)} />
              </div>
              <button type="button" onClick={save} disabled={busy !== null || name.trim() === '' || draft.recordedBody}>
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
