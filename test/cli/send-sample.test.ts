// Issue 45 (9): a webhook source's sample event (its `sampleEmit`, imported from a sibling
// test-event.mjs as registry sources do) is Run now's payload and is sent by `spout send --sample`.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cli, cliEnv, cliJson } from '../helpers/cli';
import { type SpoutProcess, startSpout, tempDir } from '../helpers/service';

/** A webhook source in the registry's shape, written for this test. */
const SOURCE = `import sampleEmit from "./test-event.mjs";

export default {
  key: "shop-new-order-instant",
  name: "New order (instant)",
  version: "0.0.1",
  type: "source",
  dedupe: "unique",
  props: { http: { type: "$.interface.http", customResponse: false } },
  async run(event) {
    this.$emit(event.body, { id: event.body.id, summary: "order " + event.body.id });
  },
  sampleEmit,
};
`;

const SAMPLE = `export default {
  id: "ord_1001",
  total_price: "12.50",
  customer: { email: "ada@example.com" },
};
`;

describe('spout send --sample', () => {
  let spout: SpoutProcess;
  let env: Record<string, string | undefined>;
  const dir = tempDir('spout-cli-sample-');
  before(async () => {
    spout = await startSpout();
    env = cliEnv(spout);
    fs.mkdirSync(path.join(dir, 'new-order'));
    fs.writeFileSync(path.join(dir, 'new-order', 'new-order.mjs'), SOURCE);
    fs.writeFileSync(path.join(dir, 'new-order', 'test-event.mjs'), SAMPLE);
    fs.writeFileSync(path.join(dir, 'plain.mjs'), SOURCE.replace('import sampleEmit from "./test-event.mjs";\n', '').replace('  sampleEmit,\n', ''));
  });
  after(async () => {
    await spout.stop();
  });

  it('shows the sample as the Run-now request and sends it to the endpoint', async () => {
    const source = (await cliJson(['deploy', 'new-order/new-order.mjs', '--no-follow'], env, { cwd: dir })) as { id: string };
    const view = (await spout.api('GET', `/v1/sources/${source.id}/run/request`)).json.data as { from: string; request: { method: string; body: string }; sample: string };
    assert.equal(view.from, 'sample');
    assert.equal(view.request.method, 'POST');
    assert.deepEqual(JSON.parse(view.request.body), { id: 'ord_1001', total_price: '12.50', customer: { email: 'ada@example.com' } });
    const sent = (await cliJson(['send', source.id, '--sample'], env)) as { events: Array<{ event: { id: string } }> };
    assert.deepEqual(
      sent.events.map((e) => e.event.id),
      ['ord_1001'],
    );
  });

  it('says so when the component ships no sample event', async () => {
    const source = (await cliJson(['deploy', 'plain.mjs', '--no-follow'], env, { cwd: dir })) as { id: string };
    const r = await cli(['send', source.id, '--sample'], env);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /ships no sample event \(a `sampleEmit` export, as registry sources have in test-event\.mjs\); give a body instead/);
    const view = (await spout.api('GET', `/v1/sources/${source.id}/run/request`)).json.data as { from: string; sample: string | null };
    assert.deepEqual([view.from, view.sample], ['default', null]);
  });
});
