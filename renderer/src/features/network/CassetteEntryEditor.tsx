import { useState } from 'react';
import type { CassetteEntry } from '../../../../runtime/contract/network-api';
import { bodyBytes } from '../../ui/format';
import { headerLines, parseHeaderLines } from '../../ui/header-lines';

type Body = Pick<CassetteEntry['response'], 'body' | 'body_encoding' | 'body_size' | 'body_truncated'>;

/** A body after the user typed `text`: as text, its size counted again, no longer cut. */
function typed(old: Body, text: string): Body {
  return { body: text, body_encoding: old.body_encoding, body_size: bodyBytes(text, old.body_encoding), body_truncated: false };
}

/** Headers from their lines, a repeated one joined as HTTP would (`a, b`). */
function flatHeaders(text: string): Record<string, string> {
  return Object.fromEntries(Object.entries(parseHeaderLines(text)).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]));
}

/** Error paths a user tries most, one click away. */
const PRESETS: Array<{ label: string; status: number; headers: Record<string, string>; body: string }> = [
  { label: '429 with Retry-After', status: 429, headers: { 'content-type': 'application/json', 'retry-after': '1' }, body: '{"error":"rate limited"}' },
  { label: '500', status: 500, headers: { 'content-type': 'application/json' }, body: '{"error":"internal error"}' },
];

/** Edits one cassette entry: the request it matches and the response replay answers with. */
export function CassetteEntryEditor(props: { number: number; entry: CassetteEntry; last: boolean; onChange(entry: CassetteEntry): void; onDuplicate(): void; onMove(by: -1 | 1): void; onRemove(): void }) {
  const { number, entry, last, onChange } = props;
  const { request, response } = entry;
  const [headers, setHeaders] = useState(() => headerLines(response.headers));
  const [headerError, setHeaderError] = useState<string | null>(null);
  const id = (what: string) => `entry-${what}`;

  const editHeaders = (text: string) => {
    setHeaders(text);
    try {
      onChange({ ...entry, response: { ...response, headers: flatHeaders(text) } });
      setHeaderError(null);
    } catch (err) {
      setHeaderError(err instanceof Error ? err.message : String(err));
    }
  };
  const preset = (p: (typeof PRESETS)[number]) => {
    setHeaders(headerLines(p.headers));
    setHeaderError(null);
    onChange({ ...entry, response: { ...response, status: p.status, headers: p.headers, ...typed({ ...response, body_encoding: 'utf8' }, p.body) } });
  };
  const binary = (b: Body) => b.body_encoding === 'base64' && <p className="muted small-note">A binary body, as base64.</p>;
  const cut = (b: Body) => b.body_truncated && <p className="muted small-note">Only the first bytes of {b.body_size.toLocaleString('en')} were kept; replay answers with them.</p>;

  return (
    <section className="entry-editor" aria-labelledby="entry-h" data-testid="cassette-entry-editor">
      <div className="row wrap">
        <h3 id="entry-h" className="grow">
          Call {number} {entry.recorded_at === null ? '(written by hand)' : ''}
        </h3>
        <button type="button" className="small" onClick={() => props.onMove(-1)} disabled={number === 1}>
          Move up
        </button>
        <button type="button" className="small" onClick={() => props.onMove(1)} disabled={last}>
          Move down
        </button>
        <button type="button" className="small" onClick={props.onDuplicate}>
          Duplicate
        </button>
        <button type="button" className="small danger-outline" onClick={props.onRemove}>
          Remove
        </button>
      </div>
      <fieldset>
        <legend>Request it answers</legend>
        <div className="row">
          <label htmlFor={id('method')}>Method</label>
          <input id={id('method')} className="mono method-input" value={request.method} onChange={(e) => onChange({ ...entry, request: { ...request, method: e.target.value.toUpperCase() } })} />
          <label htmlFor={id('url')}>URL</label>
          <input id={id('url')} className="grow mono" value={request.url} onChange={(e) => onChange({ ...entry, request: { ...request, url: e.target.value } })} />
        </div>
        <label htmlFor={id('request-body')}>Request body (compared when matching bodies)</label>
        <textarea id={id('request-body')} className="mono" rows={2} value={request.body} onChange={(e) => onChange({ ...entry, request: { ...request, ...typed(request, e.target.value) } })} />
        {binary(request)}
        {cut(request)}
      </fieldset>
      <fieldset>
        <legend>Response replay answers with</legend>
        <div className="row wrap">
          <label htmlFor={id('status')}>Status</label>
          <input id={id('status')} className="mono status-input" type="number" min={100} max={599} value={response.status} onChange={(e) => onChange({ ...entry, response: { ...response, status: Number(e.target.value) } })} />
          <span className="muted">Make it:</span>
          {PRESETS.map((p) => (
            <button key={p.label} type="button" className="small" onClick={() => preset(p)}>
              {p.label}
            </button>
          ))}
        </div>
        <label htmlFor={id('headers')}>Response headers (one per line)</label>
        <textarea id={id('headers')} className="mono" rows={3} value={headers} onChange={(e) => editHeaders(e.target.value)} aria-invalid={headerError !== null} aria-describedby={headerError ? id('headers-error') : undefined} />
        {headerError && (
          <p id={id('headers-error')} className="field-error" role="alert">
            {headerError}
          </p>
        )}
        <label htmlFor={id('response-body')}>Response body</label>
        <textarea id={id('response-body')} className="mono" rows={8} value={response.body} onChange={(e) => onChange({ ...entry, response: { ...response, ...typed(response, e.target.value) } })} />
        {binary(response)}
        {cut(response)}
      </fieldset>
    </section>
  );
}
