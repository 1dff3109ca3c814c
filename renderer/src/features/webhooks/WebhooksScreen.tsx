import { useState } from 'react';
import { useConnection } from '../../api/client';
import { segments, useRoute } from '../../app/router';
import { useApp } from '../../app/store';
import { CopyButton } from '../../ui/CopyButton';
import { ItemList } from '../../ui/ItemList';
import { Link } from '../../ui/Link';
import { ListDetail, Welcome } from '../../ui/ListDetail';
import { WebhookCreate } from './WebhookCreate';
import { WebhookDetail } from './WebhookDetail';
import { HealthBadge, healthLine } from './WebhookHealth';
import { useWebhookList } from './webhook-data';

/** Webhooks: the list, the create form, and the selected webhook (subscriptions, deliveries). */
export function WebhooksScreen() {
  const { path, navigate } = useRoute();
  const toast = useApp((s) => s.toast);
  const { webhooks, loaded: webhooksLoaded } = useWebhookList();
  const reachable = useConnection((c) => c.reachable);
  const [, id] = segments(path);
  const [created, setCreated] = useState<{ id: string; secret: string } | null>(null);

  const content =
    id === 'new' ? (
      <WebhookCreate
        onCreated={(wh, secret) => {
          setCreated({ id: wh, secret });
          toast('Webhook created');
          navigate(`/webhooks/${wh}`);
        }}
      />
    ) : id ? (
      <>
        {created?.id === id && (
          <div className="secret-once" role="status">
            <strong>Signing secret</strong> — give it to your receiver to verify signatures (Standard Webhooks). Reveal secret, under Signing secret below, shows it again.
            <div className="row">
              <code data-testid="signing-secret">{created.secret}</code>
              <CopyButton text={created.secret} label="Copy secret" />
              <button type="button" className="small" onClick={() => setCreated(null)}>
                Done
              </button>
            </div>
          </div>
        )}
        <WebhookDetail key={id} id={id} />
      </>
    ) : (
      <Welcome title="Webhooks">
        <p>Events of subscribed sources are POSTed to each webhook, signed (Standard Webhooks) and retried until delivered.</p>
        {!webhooksLoaded && !reachable && <p className="notice">The service is not answering: the webhooks show once it is back.</p>}
        <Link to="/webhooks/new" className="button primary">
          Create a webhook
        </Link>
      </Welcome>
    );

  return (
    <ListDetail
      title="Webhooks"
      item="webhook"
      base="/webhooks"
      hasDetail={Boolean(id)}
      list={
        <ItemList label="Webhooks" items={webhooks} loaded={webhooksLoaded} notLoaded={reachable ? undefined : 'Not loaded: the service is not answering.'} empty="No webhooks yet." href={(w) => `/webhooks/${encodeURIComponent(w.id)}`} selectedId={id ?? null}>
          {(w) => (
            <>
              <span className="name">{w.name}</span>
              <HealthBadge webhook={w} />
              <span className="endpoint">{w.url}</span>
              <span className="stats" data-testid="webhook-health">
                {healthLine(w)}
              </span>
            </>
          )}
        </ItemList>
      }
      detail={content}
    />
  );
}
