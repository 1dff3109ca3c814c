import { useEffect, useRef } from 'react';
import type { MessageView } from '../../../../runtime/contract/webhook-api';
import { when } from '../../ui/format';
import { Link } from '../../ui/Link';
import { activityPath, eventPath } from '../activity/invocations';
import { useAttempts } from './webhook-data';

/** Headers as `name: value` lines under a heading (the signature as it was sent, for checking a receiver's verification). */
function HeaderBlock({ label, headers }: { label: string; headers: Record<string, string> }) {
  return (
    <>
      <h5>Headers</h5>
      <pre className="raw-body" aria-label={label} data-testid="attempt-headers">
        {Object.entries(headers)
          .map(([k, v]) => `${k}: ${v}`)
          .join('\n')}
      </pre>
    </>
  );
}

/** One delivery message, and its attempts when opened: each attempt's request (headers, signature, payload) and response. */
export function MessageRow({ m, webhookId, open, active, onToggle, onResend }: { m: MessageView; webhookId: string; open: boolean; active: boolean; onToggle(): void; onResend(): void }) {
  const attempts = useAttempts(webhookId, m.id, open);
  const row = useRef<HTMLTableRowElement>(null);
  // Opened by j/k, the row comes into view.
  useEffect(() => {
    if (open) row.current?.scrollIntoView({ block: 'nearest' });
  }, [open]);
  return (
    <>
      <tr ref={row} data-message-id={m.id} data-status={m.status} className={open ? 'selected' : undefined}>
        <td>
          <span className={`badge status-${m.status}`} title={m.status === 'paused' ? 'Held while the webhook is paused' : undefined}>
            {m.status}
          </span>
        </td>
        <td className="cell-event">
          {/* The event opens in its source's Events tab; a workflow's event has no inspector to link to. */}
          {m.source_id ? (
            <Link to={eventPath(m.source_id, m.event_id)} className="summary" title={`Open event ${m.event_id}`}>
              {m.event_summary ?? <code>{m.event_id}</code>}
            </Link>
          ) : (
            <span className="summary" title={m.event_id}>
              {m.event_summary ?? <code>{m.event_id}</code>}
            </span>
          )}
          {m.source_id && m.run_id && (
            <>
              {' '}
              <Link to={activityPath(m.source_id, m.run_id)} className="run-link" aria-label={`run ${m.run_id}`} title="The run that emitted the event">
                run
              </Link>
            </>
          )}
          {m.event_name && <span className="channel"> {m.event_name}</span>}
        </td>
        <td className="cell-source" title={m.emitter_id}>
          {m.emitter_name ?? <code>{m.emitter_id}</code>}
        </td>
        <td>{m.attempts}</td>
        <td>{m.status === 'paused' ? <span className="muted">held (paused)</span> : when(m.next_attempt_at)}</td>
        <td>{when(m.created_at)}</td>
        <td className="cell-actions">
          <button type="button" className="small" aria-expanded={open} onClick={onToggle}>
            {open ? 'Hide attempts' : 'Attempts'}
          </button>
          <button type="button" className="small" onClick={onResend} disabled={!active} title={active ? undefined : 'Enable the webhook to resend'}>
            Resend
          </button>
        </td>
      </tr>
      {open && (
        <tr className="attempts-row">
          <td colSpan={7}>
            {!attempts ? (
              <p className="muted">Loading…</p>
            ) : attempts.length === 0 ? (
              <p className="muted">No attempt yet.</p>
            ) : (
              <ul className="plain attempts" aria-label={`Attempts of ${m.id}`}>
                {attempts.map((a) => (
                  <li key={a.id}>
                    <div className="row">
                      <span className={a.status_code !== null && a.status_code < 300 ? 'badge active' : 'badge failed'}>{a.status_code ?? 'no response'}</span>
                      <span>{a.duration_ms} ms</span>
                      <span className="muted">{a.trigger}</span>
                      <span className="muted">{when(a.created_at)}</span>
                      {a.error && <span className="error">{a.error}</span>}
                    </div>
                    <details className="attempt-part">
                      <summary>Request</summary>
                      {a.request_headers ? <HeaderBlock label={`Request headers of attempt ${a.id}`} headers={a.request_headers} /> : <p className="muted">Headers were not recorded for this attempt (made by an older version).</p>}
                      <h5>Payload (the bytes signed)</h5>
                      <pre className="raw-body">{a.request_body}</pre>
                    </details>
                    <details className="attempt-part">
                      <summary>Response</summary>
                      {a.response_headers ? <HeaderBlock label={`Response headers of attempt ${a.id}`} headers={a.response_headers} /> : <p className="muted">No response{a.error ? `: ${a.error}` : ''}.</p>}
                      {a.response_body ? (
                        <>
                          <h5>Body</h5>
                          <pre className="raw-body">{a.response_body}</pre>
                        </>
                      ) : null}
                    </details>
                  </li>
                ))}
              </ul>
            )}
          </td>
        </tr>
      )}
    </>
  );
}
