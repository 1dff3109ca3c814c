import { type FormEvent, useEffect, useState } from 'react';
import type { MessageView } from '../../../../runtime/contract/webhook-api';
import { messageOf } from '../../api/client';
import { useApp } from '../../app/store';
import { dateTime } from '../../ui/format';
import { TableHead } from '../../ui/TableHead';
import { MessageRow } from './MessageRow';
import { recoverFailed, resendMessage, useMessages } from './webhook-data';

/** A webhook's deliveries, newest first and refreshed live: status and source filters, attempts, resend, bulk retry (recover). */
export function WebhookMessages({ webhookId, active }: { webhookId: string; active: boolean }) {
  const toast = useApp((s) => s.toast);
  const sources = useApp((s) => s.sources);
  const [status, setStatus] = useState<MessageView['status'] | ''>('');
  const [source, setSource] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const [since, setSince] = useState(() => dateTime(Date.now() - 3600_000).slice(0, 16));

  // Unreachable: the banner says so and the rows loaded before stay.
  const { messages, total, loaded, error, reload: load, more } = useMessages(webhookId, status, source);
  useEffect(() => {
    if (error) toast(error, 'error');
  }, [error, toast]);

  const sourceName = (id: string) => sources.find((s) => s.id === id)?.name ?? id;
  const resend = async (m: MessageView) => {
    try {
      await resendMessage(webhookId, m.id);
      toast('Resending');
      void load();
    } catch (err) {
      toast(messageOf(err), 'error');
    }
  };
  const recover = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const at = new Date(since.trim().replace(' ', 'T')).getTime();
      if (Number.isNaN(at)) return toast(`"${since}" is not a time: write it as YYYY-MM-DD HH:MM`, 'error');
      const recovered = await recoverFailed(webhookId, Math.floor(at / 1000), source);
      toast(`${recovered} failed message${recovered === 1 ? '' : 's'} sent again${source ? ` (from ${sourceName(source)})` : ''}`);
      void load();
    } catch (err) {
      toast(messageOf(err), 'error');
    }
  };

  return (
    <section className="card" aria-labelledby="msgs-h">
      <div className="row">
        <h2 id="msgs-h">Deliveries</h2>
        <span className="muted" data-testid="delivery-count" aria-live="polite">
          {loaded ? `${messages.length} of ${total}${status ? ` ${status}` : ''}${source ? ` from ${sourceName(source)}` : ''}` : ''}
        </span>
        <span className="grow" />
        <label htmlFor="msg-source" className="sr-only">
          Deliveries from
        </label>
        <select id="msg-source" value={source} onChange={(e) => setSource(e.target.value)}>
          <option value="">All sources</option>
          {sources.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
        <label htmlFor="msg-status" className="sr-only">
          Status
        </label>
        <select id="msg-status" value={status} onChange={(e) => setStatus(e.target.value as MessageView['status'] | '')}>
          <option value="">All statuses</option>
          <option value="pending">pending</option>
          <option value="delivered">delivered</option>
          <option value="failing">failing</option>
          <option value="failed">failed</option>
          <option value="paused">paused (held)</option>
        </select>
      </div>
      {!loaded ? (
        <p className="empty">Loading deliveries…</p>
      ) : messages.length === 0 ? (
        <p className="empty">No deliveries yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="table messages-table" aria-label="Messages">
            <TableHead columns={['Status', 'Event', 'Source', 'Attempts', 'Next attempt', 'Created']} />
            <tbody>
              {messages.map((m) => (
                <MessageRow key={m.id} m={m} webhookId={webhookId} open={open === m.id} active={active} onToggle={() => setOpen(open === m.id ? null : m.id)} onResend={() => void resend(m)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {loaded && messages.length < total && (
        <button type="button" className="small" onClick={more}>
          Load {Math.min(100, total - messages.length)} more ({total - messages.length} not shown)
        </button>
      )}
      <form className="row wrap" onSubmit={(e) => void recover(e)} aria-label="Recover failed messages">
        <label htmlFor="recover-since">Recover failed messages since</label>
        {/* Text, not datetime-local: that one follows the browser's locale (12-hour in en-US), every other time here is 24-hour. */}
        <input id="recover-since" className="mono" size={17} placeholder="YYYY-MM-DD HH:MM" pattern="\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?" aria-describedby="recover-since-hint" value={since} onChange={(e) => setSince(e.target.value)} />
        <span id="recover-since-hint" className="muted small-note">
          local time, 24-hour
        </span>
        {/* The list's source filter applies here too: what is shown is what is retried. */}
        <button type="submit" disabled={!active} title={source ? `Retry the failed messages of ${sourceName(source)}` : 'Retry every failed message'}>
          Recover
        </button>
      </form>
    </section>
  );
}
