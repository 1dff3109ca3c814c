// `spout webhooks messages|attempts|resend|recover|pause|resume` as the real binary, human and --json (issue 47).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { MessageView } from '../../runtime/contract/webhook-api';
import { cli, cliEnv, cliJson } from '../helpers/cli';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { deploySource, type SpoutProcess, startSpout, waitFor } from '../helpers/service';
import { createWebhook, subscribe } from '../helpers/webhooks';

describe('spout webhooks: deliveries', () => {
  let spout: SpoutProcess;
  let env: Record<string, string | undefined>;
  let r: Receiver;
  let source: { id: string; endpoint: string };
  let hook: { id: string };
  const emit = async (n: string) => assert.equal((await fetch(source.endpoint, { method: 'POST', body: JSON.stringify({ n }), headers: { 'content-type': 'application/json' } })).status, 200);
  /** The webhook's messages as `spout webhooks messages --json` prints them, once `count` of them are in `status`. */
  const untilMessages = (status: string, count: number) =>
    waitFor(
      async () => {
        const listed = await cliJson<MessageView[]>(['webhooks', 'messages', hook.id, '--status', status], env);
        return listed.length === count ? listed : null;
      },
      15_000,
      `${count} ${status} message(s)`,
    );

  before(async () => {
    spout = await startSpout();
    env = cliEnv(spout);
    r = await startReceiver();
    r.respond = () => 500;
    source = await deploySource(spout);
    hook = await createWebhook(spout, r.url, { retry_schedule: [] });
    await subscribe(spout, source.id, hook.id);
  });
  after(async () => {
    await spout.stop();
    await r.close();
  });

  it("lists a webhook's messages and a message's attempts, filtered, as a table and as JSON", async () => {
    await emit('one');
    const [failed] = await untilMessages('failed', 1);
    assert.equal(failed?.emitter_id, source.id);
    assert.equal(failed?.source_id, source.id);

    const table = await cli(['webhooks', 'messages', hook.id], env);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^ID\s+STATUS\s+EVENT\s+SOURCE\s+ATTEMPTS\s+NEXT ATTEMPT\s+CREATED$/m);
    assert.match(table.stdout, new RegExp(`^${failed?.id}\\s+failed\\s+POST /\\s+Request echo\\s+1\\s+-\\s+\\d{4}-`, 'm'));
    assert.deepEqual(await cliJson(['webhooks', 'messages', hook.id, '--status', 'delivered'], env), []);
    assert.equal((await cliJson<MessageView[]>(['webhooks', 'messages', hook.id, '--source', source.id, '--since', '1h'], env)).length, 1);
    assert.equal((await cliJson<MessageView[]>(['webhooks', 'messages', hook.id, '--until', '2000-01-01T00:00:00Z'], env)).length, 0);

    const attempts = await cliJson<Array<{ status_code: number; trigger: string }>>(['webhooks', 'attempts', failed!.id], env);
    assert.deepEqual(
      attempts.map((a) => [a.status_code, a.trigger]),
      [[500, 'scheduled']],
    );
    const text = await cli(['webhooks', 'attempts', failed!.id], env);
    assert.match(text.stdout, /^ATTEMPT\s+RESULT\s+DURATION\s+TRIGGER\s+AT\s+ERROR$/m);
    assert.match(text.stdout, new RegExp(`^${failed?.id}\\.1\\s+500\\s+\\d+ ms\\s+scheduled`, 'm'));

    const bad = await cli(['webhooks', 'messages', hook.id, '--status', 'bogus'], env);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /status must be one of pending, delivered, failing, failed, paused/);
    const badTime = await cli(['webhooks', 'messages', hook.id, '--since', 'last tuesday'], env);
    assert.notEqual(badTime.code, 0);
    assert.match(badTime.stderr, /--since: "last tuesday" is not a time/);
    const unknown = await cli(['webhooks', 'attempts', 'msg_nope'], env);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /no webhook has a message msg_nope/);
  });

  it('resends one message and retries every failed one in bulk, printing how many', async () => {
    await emit('two');
    const failed = await untilMessages('failed', 2);
    r.respond = () => 200;
    const resent = await cli(['webhooks', 'resend', failed[0]!.id], env);
    assert.equal(resent.code, 0, resent.stderr);
    assert.match(resent.stdout, new RegExp(`Resending ${failed[0]?.id} to ${r.url}`));
    await untilMessages('delivered', 1);

    const recovered = await cli(['webhooks', 'recover', hook.id, '--status', 'failed', '--source', source.id], env);
    assert.equal(recovered.code, 0, recovered.stderr);
    assert.match(recovered.stdout, new RegExp(`Queued 1 message of ${hook.id} for one more attempt`));
    await untilMessages('delivered', 2);
    assert.deepEqual(await cliJson(['webhooks', 'recover', hook.id], env), { recovered: 0 });
  });

  it("pauses and resumes a webhook's queue", async () => {
    const paused = await cli(['webhooks', 'pause', hook.id], env);
    assert.equal(paused.code, 0, paused.stderr);
    assert.match(paused.stdout, new RegExp(`Paused webhook ${hook.id}`));
    assert.match((await cli(['list', 'webhooks'], env)).stdout, new RegExp(`^${hook.id}\\s.*active, paused$`, 'm'));
    const before = r.received.length;
    await emit('held');
    const [held] = await untilMessages('paused', 1);
    const table = await cli(['webhooks', 'messages', hook.id, '--status', 'paused'], env);
    assert.match(table.stdout, new RegExp(`^${held?.id}\\s+paused \\(held\\)`, 'm'));
    assert.equal(r.received.length, before, 'nothing sent while paused');
    assert.equal((await cliJson<{ paused: boolean }>(['webhooks', 'resume', hook.id], env)).paused, false);
    await untilMessages('delivered', 3);
    assert.equal((await cliJson<{ paused: boolean }>(['webhooks', 'pause', hook.id], env)).paused, true);
    const resumed = await cli(['webhooks', 'resume', hook.id], env);
    assert.match(resumed.stdout, new RegExp(`Resumed webhook ${hook.id}`));
  });

  it('lists the delivery commands in --help', async () => {
    const help = await cli(['webhooks', '--help'], env);
    for (const action of ['messages WEBHOOK', 'attempts MESSAGE_ID', 'resend MESSAGE_ID', 'recover WEBHOOK', 'pause WEBHOOK', 'resume WEBHOOK']) assert.match(help.stdout, new RegExp(`spout webhooks ${action}`));
  });
});
