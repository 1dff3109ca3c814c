// A start's replay of deliveries.jsonl (outbox.ts): a webhook's messages past its window go to its
// spill file as the replay meets them, so memory after the open holds about the window whatever
// the backlog; lines about a message that come after it was spilled (attempts, a manual request)
// still apply; and a kill -9 during the replay loses nothing.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { Attempt, MessageStatus, NewMessage, WebhookTarget } from '../../../../runtime/contract/delivery-protocol';
import { Dispatcher } from '../../../../runtime/delivery/worker/dispatcher';
import { Outbox } from '../../../../runtime/delivery/worker/outbox';
import { attemptLine, manualLine, messageLine } from '../../../../runtime/delivery/worker/outbox-lines';
import type { HttpSender, SendOutcome } from '../../../../runtime/delivery/worker/webhook-sender';
import { everyMessage } from '../../../helpers/outbox-messages';
import { tempFiles, waitFor } from '../../../helpers/service';

const tmpFile = tempFiles('spout-replay-', 'deliveries.jsonl');
const WINDOW = 8;

const message = (n: number, webhook = 'wh_a'): NewMessage => ({ id: `msg_${webhook}_${n}`, webhook_id: webhook, event_id: `1000-${n}`, emitter_id: 'dc_a', event_name: null, body: JSON.stringify({ n, webhook }), created_at: 1000 + n, hops: 1 });
const attempt = (status_code: number | null, trigger: Attempt['trigger'] = 'scheduled'): Attempt => ({ timestamp: 1, signature: 'v1,x', status_code, duration_ms: 1, response_body: '', response_headers: {}, error: status_code ? null : 'ECONNREFUSED', trigger, created_at: 2000 });
const tried = (n: number, code: number | null, status: MessageStatus, next: number | null) => attemptLine(`msg_wh_a_${n}`, attempt(code), status, next);
const target = (id: string): WebhookTarget => ({ id, url: 'http://127.0.0.1:9/hook', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', previous_secrets: [], active: true, paused: false, retry_schedule: null, failures_counted_from: 0 });
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('Outbox replay at start', () => {
  it('holds about the window after the open and delivers the rest in order, applying lines that came after their message was spilled', async () => {
    const file = tmpFile();
    const lines = range(0, 300).map((n) => messageLine(message(n)));
    // Another webhook's messages, interleaved: it has a window of its own.
    lines.splice(50, 0, ...range(0, 20).map((n) => messageLine(message(n, 'wh_b'))));
    lines.push(
      tried(3, null, 'failing', 0), // in the window
      tried(100, null, 'failing', 0), // past it: spilled by the time this line is read
      tried(150, 200, 'delivered', null),
      tried(200, 500, 'failed', null),
      manualLine('msg_wh_a_250', 3000),
      tried(9999, 200, 'delivered', null), // a message the file no longer has
    );
    fs.writeFileSync(file, `${lines.join('\n')}\n`);

    const outbox = await Outbox.open(file, undefined, WINDOW);
    // The window, and the two still owed an attempt that were taken from the spill file.
    assert.equal(outbox.heldInMemory('wh_a'), WINDOW + 2);
    assert.equal(outbox.heldInMemory('wh_b'), WINDOW);
    assert.equal(outbox.spilledCount('wh_a'), 300 - WINDOW - 4);
    assert.equal(outbox.spilledCount('wh_b'), 20 - WINDOW);
    const byN = (n: number) => outbox.messages.get(`msg_wh_a_${n}`);
    assert.deepEqual([byN(100)?.status, byN(100)?.attempts.length, byN(100)?.next_attempt_at], ['failing', 1, 0]);
    assert.equal(byN(150)?.status, 'delivered');
    assert.equal(byN(200)?.status, 'failed');
    assert.equal(byN(250)?.manual_at, 3000);
    assert.equal(outbox.messages.has('msg_wh_a_9999'), false);
    assert.deepEqual(
      everyMessage(outbox)
        .map((m) => Number(m.id.slice(9)))
        .sort((a, b) => a - b),
      range(0, 300),
      'every message once, in memory or on disk',
    );

    const sent: string[] = [];
    let mostHeld = 0;
    const sender = {
      post: (_url: string, _headers: Record<string, string>, body: string) => {
        mostHeld = Math.max(mostHeld, outbox.heldInMemory('wh_a'));
        sent.push(body);
        return new Promise<SendOutcome>((resolve) => setImmediate(() => resolve({ status_code: 200, duration_ms: 1, response_body: '', response_headers: {}, error: null })));
      },
      close: async () => {},
    } as unknown as HttpSender;
    const hooks = new Map([target('wh_a'), target('wh_b')].map((t) => [t.id, t]));
    const d = new Dispatcher(outbox, sender, (id) => hooks.get(id), { retrySchedule: [1], concurrencyPerWebhook: 1, disableAfterMs: 0, onDisable: () => {} });
    d.start();
    await waitFor(() => sent.length === 318 || null, 30_000, 'every message owed an attempt sent');
    const sentTo = (webhook: string) =>
      sent
        .map((b) => JSON.parse(b) as { n: number; webhook: string })
        .filter((b) => b.webhook === webhook)
        .map((b) => b.n);
    assert.deepEqual(sentTo('wh_b'), range(0, 20));
    // The window, then the two owed an attempt, then the backlog read back in the order it was
    // created; the delivered and the failed message are not sent again.
    const rest = range(WINDOW, 300).filter((n) => ![100, 150, 200, 250].includes(n));
    assert.deepEqual(sentTo('wh_a'), [...range(0, WINDOW), 100, 250, ...rest]);
    assert.ok(mostHeld <= WINDOW + 2, `at most about the window in memory (${mostHeld})`);
    assert.equal(byN(100)?.attempts.length, 2, 'the attempt read from the file, and the one made');
    assert.equal(outbox.spilledCount('wh_a'), 0);
    await d.stop();
    await outbox.close();
  });

  it('loses nothing to a kill -9 during the replay: the next start spills the backlog again from the file', async () => {
    const file = tmpFile();
    const lines = range(0, 20_000).map((n) => messageLine(message(n)));
    lines.push(tried(5000, null, 'failing', 0), tried(0, 200, 'delivered', null));
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    const record = fs.readFileSync(file);
    const outboxModule = path.resolve('runtime/delivery/worker/outbox.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `const { Outbox } = await import(${JSON.stringify(outboxModule)}); await Outbox.open(${JSON.stringify(file)}, undefined, ${WINDOW}); console.log('open'); setInterval(() => {}, 60_000);`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    const spill = path.join(`${file}.backlog`, '0.jsonl');
    // Killed once the replay has started spilling (or, on a fast machine, has just finished).
    await waitFor(() => out.includes('open') || (fs.existsSync(spill) && fs.statSync(spill).size > 0) || null, 30_000, 'the replay spilling');
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;

    assert.deepEqual(fs.readFileSync(file), record, 'a start writes nothing to the record');
    const outbox = await Outbox.open(file, undefined, WINDOW);
    // The window less the delivered message, and the one owed a retry, taken from the spill file.
    assert.equal(outbox.heldInMemory('wh_a'), WINDOW);
    assert.equal(outbox.spilledCount('wh_a'), 20_000 - WINDOW - 1);
    assert.deepEqual(
      everyMessage(outbox)
        .filter((m) => m.status !== 'delivered')
        .map((m) => Number(m.id.slice(9))),
      [...range(1, WINDOW), 5000, ...range(WINDOW, 20_000).filter((n) => n !== 5000)],
      'every undelivered message once, the backlog in the order it was created',
    );
    await outbox.close();
  });
});
