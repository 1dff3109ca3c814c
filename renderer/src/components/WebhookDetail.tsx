import { useCallback, useEffect, useState } from 'react';
import type { SubscriptionView, WebhookView } from '../../../runtime/contract/webhook-api';
import { api, messageOf } from '../api';
import { useRoute } from '../router';
import { useApp } from '../store';
import { WEBHOOK_LABELS } from './WebhookCreate';
import { HealthBadge } from './WebhookHealth';
import { ConfirmDialog } from './ConfirmDialog';
import { SecretPanel } from './SecretPanel';
import { SubscribeForm } from './SubscribeForm';
import { WebhookMessages } from './WebhookMessages';
import { WebhookSettings } from './WebhookSettings';

/** One webhook: settings, signing secret, subscriptions, deliveries with attempts, resend and recover. */
export function WebhookDetail({ id }: { id: string }) {
  const navigate = useRoute((s) => s.navigate);
  const { sources, loadWebhooks, toast } = useApp();
  const [wh, setWh] = useState<WebhookView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState(false);
  const [subs, setSubs] = useState<SubscriptionView[]>([]);

  const loadSubs = useCallback(async () => {
    try {
      setSubs((await api.listSubscriptions()).data.filter((s) => s.listener_id === id));
    } catch (err) {
      toast(messageOf(err), 'error');
    }
  }, [id, toast]);

  useEffect(() => {
    api
      .listWebhooks()
      .then((page) => {
        const found = page.data.find((w) => w.id === id);
        if (found) setWh(found);
        else setError(`Webhook ${id} does not exist (any more).`);
      })
      .catch((err: unknown) => setError(messageOf(err)));
    void loadSubs();
  }, [id, loadSubs]);

  if (error) return <p className="error" role="alert">{error}</p>;
  if (!wh) return <p className="empty">Loading…</p>;

  const update = async (body: Parameters<typeof api.updateWebhook>[1], done: string) => {
    try {
      setWh(await api.updateWebhook(wh.id, body));
      void loadWebhooks();
      toast(done);
    } catch (err) {
      toast(messageOf(err, WEBHOOK_LABELS), 'error');
    }
  };

  const remove = async () => {
    setConfirm(false);
    try {
      await api.deleteWebhook(wh.id);
      void loadWebhooks();
      toast(`Deleted ${wh.name}`);
      navigate('/webhooks');
    } catch (err) {
      toast(messageOf(err), 'error');
    }
  };

  const sourceName = (emitter: string) => (emitter === 'dc_*' ? 'All sources' : (sources.find((s) => s.id === emitter)?.name ?? emitter));

  return (
    <div className="webhook-detail">
      <header className="page-head">
        <div>
          <h1 tabIndex={-1}>
            {wh.name} <HealthBadge webhook={wh} />
          </h1>
          <p className="muted">
            <code>{wh.id}</code> · <code>{wh.url}</code>
            {wh.disabled_reason && <> · disabled: {wh.disabled_reason}</>}
          </p>
        </div>
        <div className="row">
          <button type="button" onClick={() => void update({ active: !wh.active }, wh.active ? 'Disabled' : 'Enabled')}>
            {wh.active ? 'Disable' : 'Enable'}
          </button>
          <button type="button" className="danger-outline" onClick={() => setConfirm(true)}>
            Delete
          </button>
        </div>
      </header>

      <section className="card" aria-labelledby="subs-h">
        <h2 id="subs-h">Subscriptions</h2>
        {subs.length === 0 ? (
          <p className="empty">No source delivers here yet.</p>
        ) : (
          <ul className="plain">
            {subs.map((s) => (
              <li key={s.id} className="row">
                <span>
                  {sourceName(s.emitter_id)} <code>{s.emitter_id}</code> · channel {s.event_name ?? 'default'}
                </span>
                <button
                  type="button"
                  className="small"
                  onClick={async () => {
                    try {
                      await api.unsubscribe(s.emitter_id, s.listener_id, s.event_name);
                      void loadSubs();
                    } catch (err) {
                      toast(messageOf(err), 'error');
                    }
                  }}
                >
                  Unsubscribe
                </button>
              </li>
            ))}
          </ul>
        )}
        <SubscribeForm webhookId={wh.id} onDone={() => void loadSubs()} />
      </section>

      <WebhookMessages webhookId={wh.id} active={wh.active} />

      <WebhookSettings wh={wh} onSave={(body) => void update(body, 'Webhook saved')} />

      <SecretPanel id={wh.id} />

      {confirm && (
        <ConfirmDialog title={`Delete ${wh.name}?`} body="Its subscriptions and undelivered messages go with it." confirmLabel="Delete webhook" onConfirm={() => void remove()} onCancel={() => setConfirm(false)} />
      )}
    </div>
  );
}
