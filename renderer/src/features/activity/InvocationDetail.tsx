import { useEffect, useState } from 'react';
import type { InvocationView, RecordedBody } from '../../../../runtime/contract/invocation-api';
import { messageOf } from '../../api/client';
import { useApp } from '../../app/store';
import { ConsoleLines } from '../../ui/ConsoleLines';
import { CopyButton } from '../../ui/CopyButton';
import { bodyBytes, dateTime, when } from '../../ui/format';
import { JsonTree } from '../../ui/JsonTree';
import { Link } from '../../ui/Link';
import { openLine } from '../sources/split-view';
import { duration } from '../workflows/workflow';
import { curlForRequest, requestUrl } from './curl';
import { InvocationErrorView } from './InvocationErrorView';
import { replayInvocation, useInvocationRecord } from './invocation-data';
import { activityPath, eventPath, invocationTitle, networkPath, statusBadge, triggerLabel } from './invocations';
import { MakeCassette } from './MakeCassette';
import { ReplayDialog } from './ReplayDialog';
import { canSaveAsTest, SaveAsTest } from './SaveAsTest';

/** A table of name and value rows (headers, query parameters). */
function KvTable({ rows, label }: { rows: ReadonlyArray<readonly [string, string]>; label: string }) {
  return (
    <table className="table kv-table" aria-label={label}>
      <tbody>
        {rows.map(([name, value], i) => (
          <tr key={`${name}:${i}`}>
            <th scope="row">{name}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Name: value rows of a header object (a repeated header on several rows). */
function HeaderTable({ headers, label }: { headers: Record<string, string | string[]>; label: string }) {
  const rows = Object.entries(headers).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => [name, v] as const));
  if (rows.length === 0) return <p className="muted">No headers.</p>;
  return <KvTable rows={rows} label={label} />;
}

/** A recorded body: JSON formatted (with the exact text a click away), text as is, binary as base64; cut bodies say so. */
function BodyView({ body, testId }: { body: RecordedBody; testId: string }) {
  const json = body.body_encoding === 'utf8' && !body.body_truncated ? parseJson(body.body) : undefined;
  const [raw, setRaw] = useState(false);
  if (body.body_size === 0) return <p className="muted">No body.</p>;
  return (
    <div className="body-view" data-testid={testId}>
      <p className="muted small-note">
        {body.body_size} byte{body.body_size === 1 ? '' : 's'}
        {body.body_encoding === 'base64' && ', binary (shown as base64)'}
        {body.body_truncated && `; only the first ${bodyBytes(body.body, body.body_encoding)} were recorded`}
        {json !== undefined && (
          <>
            {' · '}
            <button type="button" className="link-button" aria-pressed={raw} onClick={() => setRaw(!raw)}>
              {raw ? 'Formatted' : 'Raw'}
            </button>
          </>
        )}
      </p>
      {json !== undefined && !raw ? (
        <div className="json-box">
          <JsonTree value={json} />
        </div>
      ) : (
        <pre className="raw-body">{body.body}</pre>
      )}
    </div>
  );
}

/** The JSON value of a text, or undefined when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Query parameters as sent, decoded, in order. */
function queryPairs(query: string): Array<[string, string]> {
  return [...new URLSearchParams(query).entries()];
}

/**
 * One recorded run (`GET /v1/invocations/{id}`): what triggered it (the request, the event), the
 * answer the caller got, its error with the stack mapped to the component's file, its outgoing
 * HTTP calls, log lines, emits linked to their events, and the deliveries those caused. Replay,
 * Replay with edits, Save as test, and Copy as cURL for a request. `sourceId` makes the links (a run of an action has none).
 */
export function InvocationDetail({ id, sourceId, onReplayed, headingLevel = 3 }: { id: string; sourceId: string | null; onReplayed?(r: InvocationView): void; headingLevel?: 2 | 3 | 4 }) {
  const { toast, webhooks, webhooksLoaded, loadWebhooks } = useApp();
  const { record, error } = useInvocationRecord(id);
  const [editing, setEditing] = useState(false);
  const [replaying, setReplaying] = useState(false);
  const H = `h${headingLevel}` as 'h2' | 'h3' | 'h4';
  const Sub = `h${headingLevel + 1}` as 'h3' | 'h4' | 'h5';

  // Deliveries name their webhooks.
  const hasDeliveries = (record?.deliveries.length ?? 0) > 0;
  useEffect(() => {
    if (hasDeliveries && !webhooksLoaded) void loadWebhooks();
  }, [hasDeliveries, webhooksLoaded, loadWebhooks]);

  if (error)
    return (
      <p className="error" role="alert">
        {error}
      </p>
    );
  if (!record) return <p className="empty">Loading the run…</p>;

  const replayed = (r: InvocationView) => {
    setEditing(false);
    toast(`Replayed: ${r.status}${r.response ? `, answered ${r.response.status}` : ''}`, r.status === 'ok' ? 'ok' : 'error');
    onReplayed?.(r);
  };
  const replay = async () => {
    setReplaying(true);
    try {
      replayed(await replayInvocation(record.id));
    } catch (err) {
      toast(messageOf(err), 'error');
    } finally {
      setReplaying(false);
    }
  };

  const request = record.request;
  const response = record.response;
  const curl = request ? curlForRequest(request) : null;
  const canReplay = onReplayed !== undefined && record.trigger !== 'hook' && record.trigger !== 'action';
  const canSave = sourceId !== null && canSaveAsTest(record.trigger);

  return (
    <article className="invocation-detail" aria-labelledby={`inv-title-${record.id}`} data-testid="invocation-detail" data-invocation-id={record.id}>
      <div className="row wrap">
        <H id={`inv-title-${record.id}`} className="inv-title">
          {invocationTitle(record)}
        </H>
        <span className={statusBadge(record.status)} data-testid="invocation-status">
          {record.status}
        </span>
        {response && (
          <span className={response.status < 400 ? 'badge active' : 'badge failed'} data-testid="response-status">
            {response.status}
          </span>
        )}
      </div>
      {(canReplay || request || canSave) && (
        <div className="row wrap inv-actions" role="group" aria-label="Run actions">
          {canReplay && (
            <>
              <button type="button" className="small" disabled={replaying} onClick={() => void replay()}>
                {replaying ? 'Replaying…' : 'Replay'}
              </button>
              <button type="button" className="small" onClick={() => setEditing(true)}>
                Replay with edits…
              </button>
            </>
          )}
          {request &&
            (curl ? (
              <CopyButton text={curl} label="Copy as cURL" />
            ) : (
              <button type="button" className="small" disabled title={`Only the first bytes of the ${request.body_size}-byte body were recorded, so the request cannot be copied exactly`}>
                Copy as cURL
              </button>
            ))}
          {canSave && <SaveAsTest id={record.id} />}
        </div>
      )}
      <dl className="meta-grid">
        <dt>run</dt>
        <dd>
          <code>{record.id}</code>
        </dd>
        <dt>trigger</dt>
        <dd>{triggerLabel(record)}</dd>
        <dt>started</dt>
        <dd>
          <time dateTime={new Date(record.started_at).toISOString()}>{dateTime(record.started_at)}</time>
        </dd>
        <dt>duration</dt>
        <dd>{duration(record.duration_ms)}</dd>
        {record.replay_of && (
          <>
            <dt>replay of</dt>
            <dd>{sourceId ? <Link to={activityPath(sourceId, record.replay_of)}>{record.replay_of}</Link> : <code>{record.replay_of}</code>}</dd>
          </>
        )}
        {record.listened_to && (
          <>
            <dt>listened to</dt>
            <dd>
              {record.listened_to.emitter_id.startsWith('dc_') ? (
                <Link to={eventPath(record.listened_to.emitter_id, record.listened_to.event_id)}>
                  event {record.listened_to.event_id} of {record.listened_to.emitter_id}
                </Link>
              ) : (
                <>
                  event <code>{record.listened_to.event_id}</code> of <code>{record.listened_to.emitter_id}</code>
                </>
              )}
            </dd>
          </>
        )}
      </dl>

      {record.error && (
        <section className="inv-part" aria-label="Error">
          <H>Error</H>
          <InvocationErrorView error={record.error} onFrame={sourceId ? (line) => openLine(sourceId, line) : undefined} />
        </section>
      )}

      {request ? (
        <section className="inv-part" aria-label="Request" data-testid="invocation-request">
          <H>Request</H>
          <p className="mono request-line">
            <strong>{request.method}</strong> {requestUrl(request)}
          </p>
          {request.query && <KvTable rows={queryPairs(request.query)} label="Query parameters" />}
          <details open>
            <summary>Headers</summary>
            <HeaderTable headers={request.headers} label="Request headers" />
          </details>
          <BodyView body={request} testId="request-body" />
        </section>
      ) : record.via ? (
        <section className="inv-part" aria-label="Arguments">
          <H>Arguments</H>
          <p className="muted">
            Tool {record.via.tool} called via MCP{record.via.client ? ` by ${record.via.client}` : ''}
          </p>
          <div className="json-box">
            <JsonTree value={record.via.arguments} />
          </div>
        </section>
      ) : (
        record.event !== null &&
        record.event !== undefined && (
          <section className="inv-part" aria-label={record.trigger === 'action' ? 'Steps' : 'Event'}>
            <H>{record.trigger === 'action' ? 'steps' : 'Event'}</H>
            <div className="json-box">
              <JsonTree value={record.event} />
            </div>
          </section>
        )
      )}

      {response && (
        <section className="inv-part" aria-label="Response" data-testid="invocation-response">
          <H>Response</H>
          <p>
            <span className={response.status < 400 ? 'badge active' : 'badge failed'}>{response.status}</span> <span className="muted">{response.from === 'component' ? 'sent by the component (respond)' : "the service's answer"}</span>
          </p>
          <details>
            <summary>Headers</summary>
            <HeaderTable headers={response.headers} label="Response headers" />
          </details>
          <BodyView body={response} testId="response-body" />
        </section>
      )}

      {record.calls.length > 0 && (
        <section className="inv-part" aria-label="Outgoing calls">
          <H>Outgoing calls</H>
          <MakeCassette record={record} />
          <ol className="plain calls" data-testid="invocation-calls">
            {record.calls.map((c, i) => (
              <li key={i}>
                <details>
                  <summary className="call-line">
                    <span className="mono">
                      {c.request.method} {c.request.url}
                    </span>{' '}
                    {c.response ? <span className={c.response.status < 400 ? 'badge active' : 'badge failed'}>{c.response.status}</span> : <span className="badge failed">no answer</span>}{' '}
                    <span className="muted">
                      {duration(c.duration_ms)}
                      {c.served_by === 'cassette' ? ' · from the cassette' : c.served_by === 'discovery' ? ' · not in the cassette (discovery answered {})' : ''}
                    </span>
                  </summary>
                  {c.entry !== null && record.owner_id.startsWith('dc_') && (
                    <p>
                      <Link to={networkPath(record.owner_id, c.entry + 1)}>Edit cassette entry {c.entry + 1}, which answered it</Link>
                    </p>
                  )}
                  {c.error && <p className="error">{c.error}</p>}
                  <Sub className="call-part">Request</Sub>
                  <HeaderTable headers={c.request.headers} label={`Call ${i + 1} request headers`} />
                  <BodyView body={c.request} testId={`call-${i}-request-body`} />
                  {c.response && (
                    <>
                      <Sub className="call-part">Response</Sub>
                      <HeaderTable headers={c.response.headers} label={`Call ${i + 1} response headers`} />
                      <BodyView body={c.response} testId={`call-${i}-response-body`} />
                    </>
                  )}
                </details>
              </li>
            ))}
          </ol>
        </section>
      )}

      {record.result && (
        <section className="inv-part" aria-label="Result">
          <H>Result</H>
          <div className="json-box">
            <JsonTree name="$return_value" value={record.result.ret ?? null} />
            {Object.entries(record.result.exports).map(([k, v]) => (
              <JsonTree key={k} name={k} value={v} />
            ))}
          </div>
          {record.result.exit && <p className="step-exit">Ended with $.flow.exit{record.result.exit.reason ? `: ${record.result.exit.reason}` : ''}</p>}
        </section>
      )}

      <section className="inv-part" aria-label="Logs">
        <H>Logs</H>
        <ConsoleLines lines={record.logs} testId="invocation-logs" />
      </section>

      <section className="inv-part" aria-label="Emits">
        <H>Emits</H>
        {record.emits.length === 0 ? (
          <p className="muted">Nothing was emitted.</p>
        ) : (
          <ul className="plain emits" data-testid="invocation-emits">
            {record.emits.map((e, i) => (
              <li key={e.event_id ?? `dropped-${i}`} className="row wrap">
                {e.dropped ? (
                  <span className="badge status-pending" title="The dedupe strategy dropped it: an event with its id was emitted before">
                    dropped by dedupe
                  </span>
                ) : e.event_id && sourceId ? (
                  <Link to={eventPath(sourceId, e.event_id)}>event {e.event_id}</Link>
                ) : (
                  <code>{e.event_id}</code>
                )}
                {e.name && <span className="channel">{e.name}</span>}
                <span>{e.summary ?? ''}</span>
                {e.webhooks.length > 0 && (
                  <span className="muted">
                    to {e.webhooks.length} webhook{e.webhooks.length === 1 ? '' : 's'}
                  </span>
                )}
              </li>
            ))}
          </ul>
        )}
        {record.emits_omitted && (
          <p className="muted" data-testid="invocation-emits-omitted">
            … and {record.emits_omitted.stored + record.emits_omitted.dropped} more ({record.emits_omitted.stored} stored, {record.emits_omitted.dropped} dropped by dedupe): a run's record lists its first emits; the source's events list them all.
          </p>
        )}
      </section>

      <section className="inv-part" aria-label="Deliveries">
        <H>Deliveries</H>
        {record.deliveries.length === 0 ? (
          <p className="muted">{record.emits.some((e) => e.webhooks.length) ? 'No delivery message yet.' : 'No webhook is subscribed to these events.'}</p>
        ) : (
          <div className="table-scroll">
            <table className="table" aria-label="Deliveries" data-testid="invocation-deliveries">
              <thead>
                <tr>
                  <th scope="col">Webhook</th>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Next attempt</th>
                </tr>
              </thead>
              <tbody>
                {record.deliveries.map((d) => (
                  <tr key={d.id} data-status={d.status}>
                    <td>
                      <Link to={`/webhooks/${encodeURIComponent(d.webhook_id)}`}>{webhooks.find((w) => w.id === d.webhook_id)?.name ?? d.webhook_id}</Link>
                    </td>
                    <td>
                      <code>{d.event_id}</code>
                    </td>
                    <td>
                      <span className={`badge status-${d.status}`}>{d.status}</span>
                    </td>
                    <td>{d.attempts}</td>
                    <td>{when(d.next_attempt_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      {editing && <ReplayDialog record={record} onReplayed={replayed} onClose={() => setEditing(false)} />}
    </article>
  );
}
