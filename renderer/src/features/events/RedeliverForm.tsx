import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { messageOf } from '../../api/client';
import { useApp } from '../../app/store';
import { Link } from '../../ui/Link';
import { redeliverEvent } from './event-store';

/**
 * "Re-deliver to…": sends one stored event to a chosen webhook again, subscribed or not, as a new
 * delivery message (`POST /v1/sources/{id}/events/{event_id}/redeliver`). Sits in a wrapping
 * toolbar: the button, and when open a form on its own line. Escape closes it.
 */
export function RedeliverForm({ sourceId, eventId }: { sourceId: string; eventId: string }) {
  const { webhooks, loadWebhooks, toast } = useApp();
  const [open, setOpen] = useState(false);
  const [webhookId, setWebhookId] = useState('');
  const [sending, setSending] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const select = useRef<HTMLSelectElement>(null);

  useEffect(() => {
    if (!open) return;
    void loadWebhooks();
    select.current?.focus();
  }, [open, loadWebhooks]);

  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!webhookId || sending) return;
    setSending(true);
    try {
      await redeliverEvent(sourceId, eventId, webhookId);
      const wh = webhooks.find((w) => w.id === webhookId);
      toast(`Re-delivered ${eventId} to ${wh?.name ?? webhookId}`);
      close();
    } catch (err) {
      toast(messageOf(err), 'error');
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      close();
    }
  };

  return (
    <>
      <button ref={toggle} type="button" className="small" aria-expanded={open} aria-controls="redeliver-form" onClick={() => (open ? close() : setOpen(true))}>
        Re-deliver to…
      </button>
      {open && (
        <form id="redeliver-form" className="row wrap redeliver-form" aria-label="Re-deliver the event" onSubmit={(e) => void submit(e)} onKeyDown={onKeyDown}>
          <label htmlFor="redeliver-webhook">Webhook</label>
          <select ref={select} id="redeliver-webhook" value={webhookId} onChange={(e) => setWebhookId(e.target.value)}>
            <option value="">{webhooks.length ? 'Choose a webhook…' : 'No webhooks yet'}</option>
            {webhooks.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name} ({w.url}){w.active ? '' : ' — disabled'}
              </option>
            ))}
          </select>
          <button type="submit" className="small primary" disabled={!webhookId || sending}>
            {sending ? 'Sending…' : 'Re-deliver'}
          </button>
          <button type="button" className="small" onClick={close}>
            Cancel
          </button>
          {webhooks.length === 0 && (
            <Link to="/webhooks/new" className="small-link">
              Create a webhook
            </Link>
          )}
          <span className="muted small-note">A new delivery message (its own webhook-id), whether or not the webhook is subscribed.</span>
        </form>
      )}
    </>
  );
}
