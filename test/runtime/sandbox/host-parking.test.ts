// Hosts on demand (issue 44): HostParking parks idle hosts after `idleMs` and keeps at most
// `warmHosts` running, least recently used first, never a busy one; and a real Sandbox parked
// loses nothing the service keeps, starts again for its next invocation, and its park is not
// reported as a host ending on its own (the crash guard counts those). Real hosts (build first).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { hostScript } from '../../../runtime/lib/paths';
import { HostParking, type Parkable } from '../../../runtime/sandbox/host-parking';
import { HostPool } from '../../../runtime/sandbox/host-pool';
import type { HostExit } from '../../../runtime/sandbox/host-process';
import { Sandbox } from '../../../runtime/sandbox/sandbox';
import { waitFor } from '../../helpers/service';

/** A stand-in sandbox: parks unless busy. */
function fake(name: string, parked: string[]): Parkable & { busy: boolean } {
  const sandbox = {
    busy: false,
    park: () => {
      if (sandbox.busy) return false;
      parked.push(name);
      parking?.forget(sandbox);
      return true;
    },
  };
  return sandbox;
}
let parking: HostParking | null = null;

describe('HostParking', () => {
  after(() => parking?.stop());

  it('parks the least recently used idle hosts past the limit, never the one just used nor a busy one', () => {
    const parked: string[] = [];
    parking = new HostParking({ idleMs: 3_600_000, warmHosts: 2 });
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((n) => fake(n, parked)) as [ReturnType<typeof fake>, ReturnType<typeof fake>, ReturnType<typeof fake>, ReturnType<typeof fake>];
    parking.used(a);
    parking.used(b);
    parking.used(a);
    parking.used(c);
    assert.deepEqual(parked, ['b'], 'b was used least recently');
    a.busy = true;
    parking.used(d);
    assert.deepEqual(parked, ['b', 'c'], 'a is busy: c, the next least recently used, parks');
    assert.equal(parking.running, 2);
    parking.stop();
  });

  it('goes over the limit only while every other host is busy, and meets it when one goes idle', () => {
    const parked: string[] = [];
    parking = new HostParking({ idleMs: 3_600_000, warmHosts: 1 });
    const a = fake('a', parked);
    const b = fake('b', parked);
    a.busy = true;
    parking.used(a);
    parking.used(b);
    assert.deepEqual(parked, []);
    assert.equal(parking.running, 2);
    a.busy = false;
    parking.used(a);
    assert.deepEqual(parked, ['b']);
    parking.stop();
  });

  it('parks a host once it has been idle for idleMs, and a busy one only after its runs end', async () => {
    const parked: string[] = [];
    parking = new HostParking({ idleMs: 50, warmHosts: 10 });
    const a = fake('a', parked);
    const b = fake('b', parked);
    b.busy = true;
    parking.used(a);
    parking.used(b);
    await waitFor(() => parked.includes('a'), 5000, 'a to park');
    assert.deepEqual(parked, ['a']);
    b.busy = false;
    parking.used(b);
    await waitFor(() => parked.includes('b'), 5000, 'b to park');
    assert.equal(parking.running, 0);
    parking.stop();
  });
});

describe('Sandbox.park', () => {
  const pool = new HostPool({ script: hostScript, baseRead: [], memoryMb: 256, spare: false });
  after(() => pool.stop());
  const bundle = `module.exports = { default: { type: "source", name: "Counter", version: "0.0.1", props: {},
    async run() { globalThis.runs = (globalThis.runs ?? 0) + 1; console.log(JSON.stringify({ runs: globalThis.runs, pid: process.pid })); } } };`;

  it('stops an idle host without counting it as an end, and starts a fresh one for the next invocation', async () => {
    const exits: HostExit[] = [];
    const lines: string[] = [];
    const rules = new HostParking({ idleMs: 3_600_000, warmHosts: 10 });
    const sandbox = Sandbox.parked({ bundle, filename: 'counter.cjs', hosts: pool, parking: rules, timeoutMs: 30_000, maxQueue: 10, label: 'counter', onLog: (l) => lines.push(l.message), onStrayEmits: () => {}, onHostExit: (exit) => exits.push(exit) });
    assert.equal(sandbox.hostState, 'parked');
    await sandbox.invoke({ kind: 'run', eventJson: '{}' });
    assert.equal(sandbox.hostState, 'running');
    assert.equal(rules.running, 1);
    assert.equal(sandbox.park(), true);
    assert.equal(sandbox.hostState, 'parked');
    assert.equal(rules.running, 0);
    await sandbox.invoke({ kind: 'run', eventJson: '{}' });
    const [a, b] = lines.map((l) => JSON.parse(l) as { runs: number; pid: number }) as [{ runs: number; pid: number }, { runs: number; pid: number }];
    assert.notEqual(a.pid, b.pid, 'a fresh host');
    assert.equal(b.runs, 1, 'what the module kept in memory went with its host');
    assert.deepEqual(exits, [], 'a park is not a host ending on its own');
    await sandbox.close();
    rules.stop();
  });

  it('refuses to park while an invocation runs', async () => {
    const rules = new HostParking({ idleMs: 3_600_000, warmHosts: 10 });
    const sandbox = Sandbox.parked({ bundle, filename: 'counter.cjs', hosts: pool, parking: rules, timeoutMs: 30_000, maxQueue: 10, label: 'counter', onLog: () => {}, onStrayEmits: () => {} });
    await sandbox.wake();
    const run = sandbox.invoke({ kind: 'run', eventJson: '{}' });
    // Sent to the host, not answered yet: it is busy.
    assert.equal(sandbox.park(), false);
    assert.equal((await run).error, null);
    assert.equal(sandbox.park(), true);
    await sandbox.close();
    rules.stop();
  });
});
