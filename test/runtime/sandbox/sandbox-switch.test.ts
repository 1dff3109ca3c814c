// Save to live (issue 44 point 5): an update lets the runs under way end on the old code before it
// stops what is left (Sandbox.settle, bounded), and a sandbox closed while its host is still
// starting runs what was queued and then stops, rather than waiting for ever (the service's
// shutdown hung on it after a save). Real hosts (build first).
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { hostScript } from '../../../runtime/lib/paths';
import { HostPool } from '../../../runtime/sandbox/host-pool';
import { Sandbox } from '../../../runtime/sandbox/sandbox';
import { waitFor } from '../../helpers/service';

const pool = new HostPool({ script: hostScript, baseRead: [], memoryMb: 256, spare: false });
/** Requests the held component made, answered when the test says so. */
const held: http.ServerResponse[] = [];
const server = http.createServer((_req, res) => held.push(res));
let url = '';
/** What the components logged. */
const lines: string[] = [];

/** A sandbox on `run`, the body of the component's run(). */
function sandboxOf(run: string): Sandbox {
  const bundle = `module.exports = { default: { type: "source", name: "Held", version: "0.0.1", props: {}, async run(event) { ${run} } } };`;
  return Sandbox.parked({ bundle, filename: 'held.cjs', hosts: pool, timeoutMs: 60_000, maxQueue: 10, label: 'held', onLog: (l) => lines.push(l.message), onStrayEmits: () => {} });
}

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe('Sandbox at a switch', () => {
  before(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(() => {
    pool.stop();
    server.close();
  });

  it('settle() waits for the run under way to end, and the run keeps its result', async () => {
    const sandbox = sandboxOf(`await fetch(${JSON.stringify(url)}); console.log("old code ended");`);
    const run = sandbox.invoke({ kind: 'run', eventJson: '{}' });
    await waitFor(() => held.length === 1, 30_000, 'the run to call out');
    let settled = false;
    const settling = sandbox.settle(60_000).then(() => (settled = true));
    await turns(20);
    assert.equal(settled, false, 'settle waits while the run is under way');
    held.shift()?.end('ok');
    await settling;
    const result = await run;
    assert.equal(result.error, null);
    assert.ok(lines.includes('old code ended'));
    await sandbox.close();
  });

  it('settle() gives up after its bound: a run that spins is then stopped', async () => {
    const sandbox = sandboxOf('for (;;) {}');
    await sandbox.wake();
    const run = sandbox.invoke({ kind: 'run', eventJson: '{}' });
    await sandbox.settle(100);
    sandbox.stopRuns('source dc_x was updated while this run was under way or waiting, and the run was stopped');
    const result = await run;
    assert.match(result.error?.message ?? '', /was updated while this run was under way/);
    await sandbox.close();
  });

  it('close() while the host starts runs what was queued, then stops the host', { timeout: 60_000 }, async () => {
    const sandbox = sandboxOf('console.log("queued run ran");');
    const run = sandbox.invoke({ kind: 'run', eventJson: '{}' });
    assert.equal(sandbox.hostState, 'starting');
    await sandbox.close();
    const result = await run;
    assert.equal(result.error, null);
    assert.ok(lines.includes('queued run ran'));
    assert.equal(sandbox.hostState, 'parked', 'its host stopped after the queued run');
  });
});
