// Issue 44, point 5: a save of new code goes live without waiting for a host to boot (the source's
// next host is booted after each code change), and a failed save leaves the old code serving.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { deploySource, type SpoutProcess, startSpout } from '../helpers/service';

/** A source (written for this test) answering its version and the pid of its host. */
const versioned = (n: number) => `export default {
  name: "Versioned", version: "0.1.0",
  props: { http: { type: "$.interface.http", customResponse: true } },
  async run() { this.http.respond({ status: 200, body: "v${n}:" + process.pid }); },
};`;

/** Every process on the machine now. */
const allPids = () =>
  new Set(
    fs
      .readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .map(Number),
  );

describe('save to live', () => {
  let spout: SpoutProcess;
  before(async () => void (spout = await startSpout()));
  after(async () => void (await spout.stop()));

  const answer = async (endpoint: string) => {
    const res = await fetch(endpoint, { method: 'POST', body: '{}' });
    const [version, pid] = (await res.text()).split(':');
    return { status: res.status, version, pid: Number(pid) };
  };

  it('new code loads in a host booted before the save, after a first code update', async () => {
    const source = await deploySource(spout, versioned(0));
    assert.equal((await spout.api('PUT', `/v1/sources/${source.id}`, { component_code: versioned(1) })).status, 200);
    assert.equal((await answer(source.endpoint)).version, 'v1');
    const running = allPids();
    assert.equal((await spout.api('PUT', `/v1/sources/${source.id}`, { component_code: versioned(2) })).status, 200);
    const second = await answer(source.endpoint);
    assert.equal(second.version, 'v2');
    assert.ok(running.has(second.pid), 'the second update loaded in a host started before it was sent');
  });

  it('a failed update keeps the old code serving, and the next good save goes live', async () => {
    const source = await deploySource(spout, versioned(0));
    const failed = await spout.api('PUT', `/v1/sources/${source.id}`, { component_code: 'export default { name: "Broken", version: "0.1.0", props: { http: { type: "$.interface.http" } }, async run() {} ' });
    assert.equal(failed.status, 400);
    assert.equal((await answer(source.endpoint)).version, 'v0');
    assert.equal((await spout.api('PUT', `/v1/sources/${source.id}`, { component_code: versioned(1) })).status, 200);
    assert.equal((await answer(source.endpoint)).version, 'v1');
  });
});
