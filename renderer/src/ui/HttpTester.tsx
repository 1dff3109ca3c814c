import { type FormEvent, useState } from 'react';
import { messageOf } from '../api/client';

interface Answer {
  status: number;
  statusText: string;
  ms: number;
  headers: Array<[string, string]>;
  body: string;
}

const METHODS = ['POST', 'GET', 'PUT', 'PATCH', 'DELETE'];

/** "Send test request": a request to the source's endpoint from the page, and its answer. */
export function HttpTester({ endpoint, idPrefix }: { endpoint: string; idPrefix: string }) {
  const [method, setMethod] = useState('POST');
  const [path, setPath] = useState('/');
  const [headers, setHeaders] = useState('content-type: application/json');
  const [body, setBody] = useState('{\n  "hello": "world"\n}');
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const send = async (e: FormEvent) => {
    e.preventDefault();
    setSending(true);
    setError(null);
    const started = performance.now();
    try {
      const h = new Headers();
      for (const line of headers.split('\n')) {
        const at = line.indexOf(':');
        if (at > 0) h.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
      }
      const url = endpoint.replace(/\/$/, '') + (path.startsWith('/') || path === '' ? path : `/${path}`);
      const res = await fetch(url, { method, headers: h, body: method === 'GET' ? undefined : body, credentials: 'omit' });
      const text = await res.text();
      setAnswer({ status: res.status, statusText: res.statusText, ms: Math.round(performance.now() - started), headers: [...res.headers.entries()], body: text });
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setSending(false);
    }
  };

  return (
    <form className="tester" onSubmit={(e) => void send(e)} aria-label="Send test request">
      <h3>Send test request</h3>
      <div className="row">
        <label className="sr-only" htmlFor={`${idPrefix}-method`}>
          Method
        </label>
        <select id={`${idPrefix}-method`} value={method} onChange={(e) => setMethod(e.target.value)}>
          {METHODS.map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
        <label className="sr-only" htmlFor={`${idPrefix}-path`}>
          Path
        </label>
        <input id={`${idPrefix}-path`} className="grow mono" value={path} onChange={(e) => setPath(e.target.value)} placeholder="/sub/path?x=1" />
        <button type="submit" className="primary" disabled={sending}>
          {sending ? 'Sending…' : 'Send request'}
        </button>
      </div>
      <label htmlFor={`${idPrefix}-headers`}>Headers (one per line)</label>
      <textarea id={`${idPrefix}-headers`} className="mono" rows={2} value={headers} onChange={(e) => setHeaders(e.target.value)} />
      {method !== 'GET' && (
        <>
          <label htmlFor={`${idPrefix}-body`}>Body</label>
          <textarea id={`${idPrefix}-body`} className="mono" rows={4} value={body} onChange={(e) => setBody(e.target.value)} />
        </>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {answer && (
        <div className="answer" aria-live="polite" data-testid="test-response">
          <div className="row">
            <span className={answer.status < 300 ? 'badge active' : 'badge failed'}>{answer.status}</span>
            <span>{answer.statusText}</span>
            <span className="muted">{answer.ms} ms</span>
          </div>
          <details>
            <summary>Response headers</summary>
            <pre>{answer.headers.map(([k, v]) => `${k}: ${v}`).join('\n')}</pre>
          </details>
          <pre>{answer.body}</pre>
        </div>
      )}
    </form>
  );
}
