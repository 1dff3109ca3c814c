import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import type { AttemptView, MessageView } from '../../runtime/contract/webhook-api';
import type { Received } from './receiver';
import { type SpoutProcess, waitFor } from './service';

/** Creates a webhook (extra fields such as `retry_schedule` as given) and returns its id and secret. */
export async function createWebhook(spout: SpoutProcess, url: string, extra: Record<string, unknown> = {}): Promise<{ id: string; secret: string }> {
  const res = await spout.api('POST', '/v1/webhooks', { url, ...extra });
  assert.equal(res.status, 200, JSON.stringify(res.json));
  return { id: res.json.data.id, secret: res.json.data.signing_secret };
}

/** Subscribes a listener to an emitter. */
export async function subscribe(spout: SpoutProcess, emitterId: string, listenerId: string): Promise<void> {
  const res = await spout.api('POST', '/v1/subscriptions', { emitter_id: emitterId, listener_id: listenerId });
  assert.equal(res.status, 200, JSON.stringify(res.json));
}

/** Verifies a received delivery with the standardwebhooks package; returns the payload, or throws. */
export function verify(secret: string, r: Received): unknown {
  return new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  });
}

/** A webhook's messages (up to 100, newest first), optionally only those in `status`. */
export async function messages(spout: SpoutProcess, webhookId: string, status?: string): Promise<{ total: number; data: MessageView[] }> {
  const res = await spout.api('GET', `/v1/webhooks/${webhookId}/messages?limit=100${status ? `&status=${status}` : ''}`);
  assert.equal(res.status, 200, JSON.stringify(res.json));
  return { total: res.json.page_info.total_count, data: res.json.data };
}

/** Waits until a webhook has `count` messages in `status`. */
export const untilMessages = (spout: SpoutProcess, webhookId: string, status: string, count = 1, ms = 10_000) => waitFor(async () => ((await messages(spout, webhookId, status)).total === count ? true : null), ms, `${count} ${status} message(s) of ${webhookId}`);

/** A message's attempts, newest first. */
export async function attempts(spout: SpoutProcess, webhookId: string, messageId: string): Promise<AttemptView[]> {
  const res = await spout.api('GET', `/v1/webhooks/${webhookId}/messages/${messageId}/attempts?limit=100`);
  assert.equal(res.status, 200, JSON.stringify(res.json));
  return res.json.data;
}

/** A source that emits `n` events `{i}` per request (`?n=…&from=…`), for backlogs. */
export const BATCH_SOURCE = `
export default {
  name: "Batch emitter",
  version: "0.1.0",
  props: { http: { type: "$.interface.http" } },
  async run(event) {
    const n = Number(event.query.n ?? 1);
    const from = Number(event.query.from ?? 0);
    for (let i = 0; i < n; i++) this.$emit({ i: from + i, text: "héllo ✓" });
  },
};
`;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
