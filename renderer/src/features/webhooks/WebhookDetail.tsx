import { useEffect, useState } from 'react';
import type { WebhookUpdate, WebhookView } from '../../../../runtime/contract/webhook-api';
import { ApiError, messageOf } from '../../api/client';
import { useRoute } from '../../app/router';
import { useApp } from '../../app/store';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { LoadState } from '../../ui/LoadState';
import { ResourceHeader } from '../../ui/ResourceHeader';
import { SecretPanel } from './SecretPanel';
import { SubscribeForm } from './SubscribeForm';
import { WEBHOOK_LABELS } from './WebhookCreate';
import { HealthBadge } from './WebhookHealth';
import { WebhookMessages } from './WebhookMessages';
import { WebhookSettings } from './WebhookSettings';
import { deleteWebhook, setPaused, unsubscribe, updateWebhook, useSubscriptions, useWebhook } from './webhook-data';

/** One webhook: settings, signing secret, subscriptions, deliveries with attempts, resend, recover, pause and resume. */
export function WebhookDetail({ id }: { id: string }) {
  const navigate = useRoute((s) => s.navigate);
  const { sources, toast } = useApp();
  const { webhook: wh, missing: error } = useWebhook(id);
  const [confirm, setConfirm] = useState(false);
  const { subscriptions: subs, error: subsError, reload: loadSubs } = useSubscriptions(id);
  useEffect(() => {
    if (subsError) toast(subsError, 'error');
  }, [subsError, toast]);

  if (error || !wh) return <LoadState error={error} />;

  /** Saves a change; answers the webhook as saved, or null. A save refused for a newer version is the settings form's to show. */
  const update = async (body: WebhookUpdate, done: string): Promise<WebhookView | null> => {
    try {
      const saved = await updateWebhook(wh.id, body);
      toast(done);
      return saved;
    } catch (err) {
      if (err instanceof ApiError && err.conflict) throw err;
      toast(messageOf(err, WEBHOOK_LABELS), 'error');
      return null;
    }
  };

  const togglePause = async () => {
    try {
      await setPaused(wh.id, !wh.paused);
      toast(wh.paused ? 'Resumed: held messages go out in the order they were created' : 'Paused: new messages and retries are held');
    } catch (err) {
      toast(messageOf(err), 'error');
    }
  };

  const remove = async () => {
    setConfirm(false);
    try {
      await deleteWebhook(wh.id);
      toast(`Deleted ${wh.name}`);
      navigate('/webhooks');
    } catch (err) {
      toast(messageOf(err), 'error');
    }
  };

  const sourceName = (emitter: string) => (emitter === 'dc_*' ? 'All sources' : (sources.find((s) => s.id === emitter)?.name ?? emitter));

  return (
    <div className="webhook-detail">
      <ResourceHeader
        title={wh.name}
        badge={
          <>
            <HealthBadge webhook={wh} />
            {wh.paused && (
              <span className="badge status-paused" data-testid="paused-badge">
                Paused
              </span>
            )}
          </>
        }
        id={wh.id}
        facts={
          <>
            {' '}
            · <code>{wh.url}</code>
            {wh.disabled_reason && <> · disabled: {wh.disabled_reason}</>}
          </>
        }
        actions={
          <>
            <button type="button" onClick={() => void togglePause()} title={wh.paused ? 'Deliver what is held, in order, then carry on' : 'Hold new messages and retries until resumed'}>
              {wh.paused ? 'Resume' : 'Pause'}
            </button>
            <button type="button" onClick={() => void update({ active: !wh.active }, wh.active ? 'Disabled' : 'Enabled')}>
              {wh.active ? 'Disable' : 'Enable'}
            </button>
            <button type="button" className="danger-outline" onClick={() => setConfirm(true)}>
              Delete
            </button>
          </>
        }
      />

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
                      await unsubscribe(s.emitter_id, s.listener_id, s.event_name);
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

      <WebhookMessages webhookId={wh.id} active={wh.active} paused={wh.paused} />

      <WebhookSettings wh={wh} onSave={(body) => update(body, 'Webhook saved')} />

      <SecretPanel id={wh.id} />

      {confirm && <ConfirmDialog title={`Delete ${wh.name}?`} body="Its subscriptions and undelivered messages go with it." confirmLabel="Delete webhook" onConfirm={() => void remove()} onCancel={() => setConfirm(false)} />}
    </div>
  );
}
