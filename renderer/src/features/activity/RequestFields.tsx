import type { ReactNode } from 'react';
import type { RunRequest } from '../../../../runtime/contract/run-request-api';
import { headerLines, parseHeaderLines } from '../../ui/header-lines';

/** A request to an endpoint as a form edits it (replay with edits, run now); `bodyEdited`: a body was typed, so it is sent as text. */
export interface RequestDraft {
  method: string;
  path: string;
  query: string;
  headers: string;
  body: string;
  bodyEdited: boolean;
}

/** A request's fields as a draft; `body` is '' for a body that cannot be edited as text (binary, or cut when recorded). */
export function requestDraft(request: RunRequest): RequestDraft {
  return { method: request.method, path: request.path, query: request.query, headers: headerLines(request.headers), body: request.body, bodyEdited: false };
}

/** The draft as the API takes a request. Throws, naming the line, on headers that cannot be read. */
export function requestOfDraft(draft: RequestDraft): RunRequest {
  return { method: draft.method.trim().toUpperCase(), path: draft.path.startsWith('/') ? draft.path : `/${draft.path}`, query: draft.query.replace(/^\?/, ''), headers: parseHeaderLines(draft.headers), body: draft.body };
}

/** The draft as the API takes a request, the body left out unless typed (an untouched one is sent as recorded, bytes and all). */
export function editsOfDraft(draft: RequestDraft): Omit<RunRequest, 'body'> & { body?: string } {
  const { body, ...request } = requestOfDraft(draft);
  return draft.bodyEdited ? { ...request, body } : request;
}

/** Method, path, query string, headers and body of a request, edited in place; `bodyNote` says how an untouched body is sent. */
export function RequestFields({ idPrefix, draft, onChange, bodyNote }: { idPrefix: string; draft: RequestDraft; onChange(draft: RequestDraft): void; bodyNote?: ReactNode }) {
  const edit = (change: Partial<RequestDraft>) => onChange({ ...draft, ...change });
  return (
    <>
      <div className="row">
        <div className="field">
          <label htmlFor={`${idPrefix}-method`}>Method</label>
          <input id={`${idPrefix}-method`} className="mono" size={8} value={draft.method} onChange={(e) => edit({ method: e.target.value })} data-autofocus />
        </div>
        <div className="field grow">
          <label htmlFor={`${idPrefix}-path`}>Path</label>
          <input id={`${idPrefix}-path`} className="mono" value={draft.path} onChange={(e) => edit({ path: e.target.value })} />
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-query`}>Query string</label>
        <input id={`${idPrefix}-query`} className="mono" value={draft.query} placeholder="a=1&b=2" onChange={(e) => edit({ query: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-headers`}>Headers (one per line)</label>
        <textarea id={`${idPrefix}-headers`} className="mono" rows={6} value={draft.headers} onChange={(e) => edit({ headers: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-body`}>Body</label>
        {!draft.bodyEdited && bodyNote && (
          <p className="muted small-note" id={`${idPrefix}-body-note`}>
            {bodyNote}
          </p>
        )}
        <textarea id={`${idPrefix}-body`} className="mono" rows={8} value={draft.body} aria-describedby={!draft.bodyEdited && bodyNote ? `${idPrefix}-body-note` : undefined} onChange={(e) => edit({ body: e.target.value, bodyEdited: true })} />
      </div>
    </>
  );
}
