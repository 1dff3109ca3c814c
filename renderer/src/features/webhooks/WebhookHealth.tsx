import type { WebhookView } from '../../../../runtime/contract/webhook-api';
import { dateTime } from '../../ui/format';

const HEALTH_LABEL = { healthy: 'active', failing: 'failing', disabled: 'disabled', idle: 'active' } as const;

/** Active, failing or disabled: what the deliveries say, not only the switch. */
export function HealthBadge({ webhook }: { webhook: WebhookView }) {
  const state = webhook.health?.state ?? (webhook.active ? 'idle' : 'disabled');
  return <span className={state === 'healthy' || state === 'idle' ? 'badge active' : state === 'failing' ? 'badge status-failing' : 'badge failed'}>{HEALTH_LABEL[state]}</span>;
}

/** One line of delivery health: since when it fails, the last success, what waits. */
export function healthLine(w: WebhookView): string {
  const h = w.health;
  if (!h) return '';
  const parts: string[] = [];
  if (w.paused) parts.push('paused');
  if (h.state === 'failing' && h.failing_since) parts.push(`failing since ${dateTime(h.failing_since * 1000)}`);
  parts.push(h.last_success_at ? `last success ${dateTime(h.last_success_at * 1000)}` : h.state === 'idle' ? 'no deliveries yet' : 'no success yet');
  if (h.failed) parts.push(`${h.failed} failed`);
  if (h.failing + h.pending) parts.push(`${h.failing + h.pending} waiting`);
  return parts.join(' · ');
}
