// `spout webhooks messages|attempts|resend|recover|pause|resume`: a webhook's delivery queue.
import type { AttemptView, MessageView, WebhookView } from '../../contract/webhook-api';
import { type ApiClient, ApiError } from '../../remote/api-client';
import { type Args, intOption } from '../support/args';
import { bold, dateTime, dim, out, printJson, table } from '../support/output';
import { resolveEmitter, resolveWebhook } from '../support/resolve';
import { timeOption } from '../support/time-option';
import { UsageError } from '../support/usage';

/** Options of the queue actions (added to the webhooks command's). */
export const QUEUE_OPTIONS = {
  status: { type: 'string' },
  source: { type: 'string' },
  'event-id': { type: 'string' },
  channel: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  limit: { type: 'string', short: 'n' },
  webhook: { type: 'string' },
} as const;

export const QUEUE_ACTIONS = ['messages', 'attempts', 'resend', 'recover', 'pause', 'resume'];

/** The filters given, as the API's parameters. */
async function filters(client: ApiClient, args: Args): Promise<Record<string, string | number>> {
  const source = args.string('source');
  const given = {
    status: args.string('status'),
    source: source === undefined ? undefined : await resolveEmitter(client, source),
    event_id: args.string('event-id'),
    event_name: args.string('channel'),
    since: timeOption('since', args.string('since')),
    until: timeOption('until', args.string('until')),
  };
  return Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as Record<string, string | number>;
}

/** The webhook a message belongs to: `--webhook` if given, else the one whose queue has it. */
async function webhookOfMessage(client: ApiClient, args: Args, messageId: string): Promise<WebhookView> {
  const ref = args.string('webhook');
  if (ref !== undefined) return resolveWebhook(client, ref);
  for (const w of await client.all<WebhookView>('/v1/users/me/webhooks')) {
    try {
      await client.get(`/v1/webhooks/${w.id}/messages/${encodeURIComponent(messageId)}/attempts`, { limit: 1 });
      return w;
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 404) throw err;
    }
  }
  throw new Error(`no webhook has a message ${messageId}; "spout webhooks messages WEBHOOK" lists a webhook's messages`);
}

const statusOf = (m: MessageView) => (m.status === 'paused' ? `${m.status} (held)` : m.status);

/** Runs one queue action; `action` is one of QUEUE_ACTIONS. */
export async function runQueueAction(action: string, args: Args, client: ApiClient): Promise<void> {
  const json = args.globals.json;
  if (action === 'pause' || action === 'resume') {
    const w = await resolveWebhook(client, args.atMost(2).required(1, `the webhook to ${action} (spout webhooks ${action} WEBHOOK)`));
    const { data } = await client.post<{ data: WebhookView }>(`/v1/webhooks/${w.id}/${action}`);
    if (json) return printJson(data);
    return out(action === 'pause' ? `Paused webhook ${bold(data.id)}: its messages are held until "spout webhooks resume ${data.id}"` : `Resumed webhook ${bold(data.id)}: held messages go out in the order they were created`);
  }
  if (action === 'messages') {
    const w = await resolveWebhook(client, args.atMost(2).required(1, 'the webhook whose messages to list (spout webhooks messages WEBHOOK)'));
    const limit = intOption(args, 'limit', 20, 1, 100);
    const page = await client.get<{ data: MessageView[]; page_info: { total_count: number } }>(`/v1/webhooks/${w.id}/messages`, { limit, ...(await filters(client, args)) });
    if (json) return printJson(page.data);
    if (!page.data.length) return out(`No messages${args.string('status') ? ` in status ${args.string('status')}` : ''} for webhook ${w.id}${w.paused ? ' (paused)' : ''}.`);
    out(
      table(
        ['ID', 'STATUS', 'EVENT', 'SOURCE', 'ATTEMPTS', 'NEXT ATTEMPT', 'CREATED'],
        page.data.map((m) => [m.id, statusOf(m), m.event_summary ?? m.event_id, m.emitter_name ?? m.emitter_id, String(m.attempts), m.next_attempt_at === null ? '-' : dateTime(m.next_attempt_at), dateTime(m.created_at)]),
      ),
    );
    if (page.page_info.total_count > page.data.length) out(dim(`${page.data.length} of ${page.page_info.total_count}; --limit shows more (up to 100)`));
    return;
  }
  if (action === 'recover') {
    const w = await resolveWebhook(client, args.atMost(2).required(1, 'the webhook whose failed messages to retry (spout webhooks recover WEBHOOK)'));
    const given = await filters(client, args);
    // Without --since every failed message is retried, however old.
    const { data } = await client.post<{ data: { recovered: number } }>(`/v1/webhooks/${w.id}/recover`, { since: 0, ...given });
    if (json) return printJson(data);
    return out(`Queued ${data.recovered} message${data.recovered === 1 ? '' : 's'} of ${w.id} for one more attempt${w.paused ? ' (held while the webhook is paused)' : ''}`);
  }
  const messageId = args.atMost(2).required(1, `the message (spout webhooks ${action} MESSAGE_ID)`);
  const w = await webhookOfMessage(client, args, messageId);
  if (action === 'resend') {
    const { data } = await client.post<{ data: MessageView }>(`/v1/webhooks/${w.id}/messages/${encodeURIComponent(messageId)}/resend`);
    if (json) return printJson(data);
    return out(`Resending ${data.id} to ${w.url}${w.paused ? ' once the webhook is resumed' : ''}`);
  }
  if (action !== 'attempts') throw new UsageError(`unknown webhooks action "${action}"`);
  const attempts = await client.all<AttemptView>(`/v1/webhooks/${w.id}/messages/${encodeURIComponent(messageId)}/attempts`);
  if (json) return printJson(attempts);
  if (!attempts.length) return out(`No attempt of ${messageId} yet.`);
  return out(
    table(
      ['ATTEMPT', 'RESULT', 'DURATION', 'TRIGGER', 'AT', 'ERROR'],
      attempts.map((a) => [a.id, a.status_code === null ? 'no response' : String(a.status_code), `${a.duration_ms} ms`, a.trigger, dateTime(a.created_at), a.error ?? '']),
    ),
  );
}
