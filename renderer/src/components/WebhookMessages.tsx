import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { MessageView } from '../../../runtime/contract/webhook-api';
import { api, messageOf, ServiceUnreachable } from '../api';
import { toLocalInput } from '../format';
import { useApp } from '../store';
import { MessageRow } from './MessageRow';
import { TableHead } from './TableHead';

/** A webhook's deliveries, newest first and refreshed live: status filter, attempts, resend, recover. */
export function WebhookMessages({ webhookId, active }: { webhookId: string; active: boolean }) {
  const toast = useApp((s) => s.toast);
  const [messages, setMessages] = useState<MessageView[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [status, setStatus] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const [since, setSince] = useState(() => toLocalInput(Date.now() - 3600_000));

  const load = useCallback(async () => {
    try {
      setMessages((await api.listMessages(webhookId, status || undefined)).data);
      setLoaded(true);
    } catch (err) {
      // Unreachable: the banner says so and the rows loaded before stay.
      if (!(err instanceof ServiceUnreachable)) toast(messageOf(err), 'error');
    }
  }, [webhookId, status, toast]);

  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), 1500);
    return () => clearInterval(timer);
  }, [load]);

  const resend = async (m: MessageView) => {
    try {
      await api.resendMessage(webhookId, m.id);
      toast('Resending');
      void load();
    } catch (err) {
      toast(messageOf(err), 'error');
    }
  };
  const recover = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const r = await api.recover(webhookId, Math.floor(new Date(since).getTime() / 1000));
      toast(`${r.recovered} failed message${r.recovered === 1 ? '' : 's'} sent again`);
      void load();
    } catch (err) {
      toast(messageOf(err), 'error');
    }
  };

  return (
    <section className="card" aria-labelledby="msgs-h">
      <div className="row">
        <h2 id="msgs-h">Deliveries</h2>
        <span className="grow" />
        <label htmlFor="msg-status" className="sr-only">
          Status
        </label>
        <select id="msg-status" value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="">All statuses</option>
          <option value="pending">pending</option>
          <option value="delivered">delivered</option>
          <option value="failing">failing</option>
          <option value="failed">failed</option>
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
      <form className="row wrap" onSubmit={(e) => void recover(e)} aria-label="Recover failed messages">
        <label htmlFor="recover-since">Recover failed messages since</label>
        <input id="recover-since" type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} />
        <button type="submit" disabled={!active}>
          Recover
        </button>
      </form>
    </section>
  );
}
