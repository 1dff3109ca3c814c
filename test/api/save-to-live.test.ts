// Issue 44, point 5: a save of new code goes live without waiting for a host to boot (the source's
// next host is booted after its deploy and after each code change), a failed save leaves the old
// code serving, saves in a row go live in the order they are applied, and a parked host whose
// module has no deactivate() is not started only to be replaced.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { deploySource, type SpoutProcess, startSpout, waitFor } from '../helpers/service';

/** A source (written for this test) answering its version and the pid of its host; `extra` goes in its definition. */
const versioned = (n: number, extra = '') => `export default {
  name: "Versioned", version: "0.1.0",
  props: { http: { type: "$.interface.http", customResponse: true } },
  ${extra}
  async run() { this.http.respond({ status: 200, body: "v${n}:" + process.pid }); },
};`;

/** The service's component hosts for source `id` (their grants name its folder, `dirs/<id>`). */
const hostsOf = (spout: SpoutProcess, id: string) => {
  const hosts = new Set<number>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The parent pid is the field after the state, which follows the parenthesised name.
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === spout.child.pid && fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(path.join('dirs', id))) hosts.add(Number(name));
    } catch {
      // ended meanwhile
    }
  }
  return hosts;
};

/** Waits until `id` has a host besides those that served it (`serving`): the one booted for its next save. */
const nextHostOf = (spout: SpoutProcess, id: string, serving: number[]) => waitFor(() => [...hostsOf(spout, id)].find((pid) => !serving.includes(pid)), 20_000, `the host booted for ${id}'s next save`);

describe('save to live', () => {
  let spout: SpoutProcess;
  before(async () => void (spout = await startSpout()));
  after(async () => void (await spout.stop()));

  const answer = async (endpoint: string) => {
    const res = await fetch(endpoint, { method: 'POST', body: '{}' });
    const [version, pid] = (await res.text()).split(':');
    return { status: res.status, version, pid: Number(pid) };
  };

  it('new code loads in a host booted before the save: after the deploy, and after each code update', async () => {
    const source = await deploySource(spout, versioned(0));
    const v0 = await answer(source.endpoint);
    const ahead = await nextHostOf(spout, source.id, [v0.pid]);
    assert.equal((await spout.api('PUT', `/v1/sources/${source.id}`, { component_code: versioned(1) })).status, 200);
    const first = await answer(source.endpoint);
    assert.equal(first.version, 'v1');
    assert.equal(first.pid, ahead, 'the first update loaded in the host booted after the deploy');
    const again = await nextHostOf(spout, source.id, [v0.pid, first.pid]);
    assert.equal((await spout.api('PUT', `/v1/sources/${source.id}`, { component_code: versioned(2) })).status, 200);
    const second = await answer(source.endpoint);
    assert.equal(second.version, 'v2');
    assert.equal(second.pid, again, 'the second update loaded in the host booted after the first');
  });

  it('a failed update keeps the old code serving, and the next good save goes live', async () => {
    const source = await deploySource(spout, versioned(0));
    const failed = await spout.api('PUT', `/v1/sources/${source.id}`, { component_code: 'export default { name: "Broken", version: "0.1.0", props: { http: { type: "$.interface.http" } }, async run() {} ' });
    assert.equal(failed.status, 400);
    assert.equal((await answer(source.endpoint)).version, 'v0');
    assert.equal((await spout.api('PUT', `/v1/sources/${source.id}`, { component_code: versioned(1) })).status, 200);
    assert.equal((await answer(source.endpoint)).version, 'v1');
  });

  it('a save whose activate() fails leaves the old version serving, in its own host', async () => {
    const source = await deploySource(spout, versioned(0, 'hooks: { async deactivate() {} },'));
    const before = await answer(source.endpoint);
    const failed = await spout.api('PUT', `/v1/sources/${source.id}`, { component_code: versioned(1, 'hooks: { async activate() { throw new Error("not today"); } },') });
    assert.equal(failed.status, 400);
    assert.match(failed.json.detail, /the activate\(\) hook failed: not today/);
    assert.deepEqual(await answer(source.endpoint), before);
    assert.equal((await spout.api('GET', `/v1/sources/${source.id}`)).json.data.version, 1);
  });

  it('saves sent together go live one after the other: the last applied serves', async () => {
    const source = await deploySource(spout, versioned(0));
    const saves = await Promise.all([1, 2, 3, 4, 5].map((n) => spout.api('PUT', `/v1/sources/${source.id}`, { component_code: versioned(n) })));
    assert.deepEqual(
      saves.map((s) => s.status),
      [200, 200, 200, 200, 200],
    );
    // Each save made the next version: applied one at a time, none lost.
    const versions = saves.map((s) => s.json.data.version as number);
    assert.deepEqual([...versions].sort(), [2, 3, 4, 5, 6]);
    const last = versions.indexOf(6) + 1;
    assert.equal((await answer(source.endpoint)).version, `v${last}`);
  });
});

describe('save to live with parked hosts', () => {
  let spout: SpoutProcess;
  before(async () => void (spout = await startSpout({ args: ['--host-idle', '1'] })));
  after(async () => void (await spout.stop()));

  /** A source that counts each load of its module in its temp folder. */
  const counting = (n: number, hooks = '') => `import fs from "node:fs";
import os from "node:os";
import path from "node:path";
fs.appendFileSync(path.join(os.tmpdir(), "loads.txt"), "v${n}\\n");
${versioned(n, hooks)}`;
  const loads = (id: string) => fs.readFileSync(path.join(spout.dataDir, 'dirs', id, '.tmp', 'loads.txt'), 'utf8');
  const parked = (id: string) => waitFor(async () => (await spout.api('GET', `/v1/sources/${id}`)).json.data.host === 'parked', 30_000, `${id}'s host to park`);

  it('new code replaces a parked host without starting it when the module has no deactivate()', async () => {
    const source = await deploySource(spout, counting(0));
    await parked(source.id);
    assert.equal((await spout.api('PUT', `/v1/sources/${source.id}`, { component_code: counting(1) })).status, 200);
    assert.equal(loads(source.id), 'v0\nv1\n');
    const res = await fetch(source.endpoint, { method: 'POST', body: '{}' });
    assert.match(await res.text(), /^v1:/);
  });

  it('the host booted for the next save ends when no save comes within --host-idle', async () => {
    const source = await deploySource(spout, versioned(0));
    const res = await fetch(source.endpoint, { method: 'POST', body: '{}' });
    const served = Number((await res.text()).split(':')[1]);
    const ahead = await nextHostOf(spout, source.id, [served]);
    await waitFor(() => !hostsOf(spout, source.id).has(ahead), 30_000, 'the host booted for the next save to end');
  });

  it('a parked host whose module has deactivate() is started to run it before the switch', async () => {
    const source = await deploySource(spout, counting(0, 'hooks: { async deactivate() {} },'));
    await parked(source.id);
    assert.equal((await spout.api('PUT', `/v1/sources/${source.id}`, { component_code: counting(1) })).status, 200);
    // Deployed, woken for deactivate(), then the new code.
    assert.equal(loads(source.id), 'v0\nv0\nv1\n');
  });
});
