// Hosts started ahead (spout/testing starts a component's host while it bundles the file): the
// load that acquires with the same grants and temp folder gets that host, once; a load with other
// grants gets a host of its own; and a host no load took is killed when dropped. Real hosts
// (build first).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { hostScript } from '../../../runtime/lib/paths';
import { HostPool } from '../../../runtime/sandbox/host-pool';
import { tempDir, waitFor } from '../../helpers/service';

describe('HostPool.startAhead', () => {
  const root = tempDir('spout-host-pool-');
  const pool = new HostPool({ script: hostScript, baseRead: [], memoryMb: 256, spare: false });
  after(() => {
    pool.stop();
    fs.rmSync(root, { recursive: true, force: true });
  });
  const folder = (name: string): string => {
    const dir = path.join(root, name);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  };

  it('gives the host started ahead to the acquire with the same grants and temp folder, once', async () => {
    const own = folder('own');
    const ahead = pool.startAhead({ read: [own], write: [own] }, own);
    const first = pool.acquire({ read: [own], write: [own] }, own);
    assert.equal(first, ahead);
    const second = pool.acquire({ read: [own], write: [own] }, own);
    assert.notEqual(second, ahead);
    for (const host of [first, second]) host.kill({ cause: 'stopped', message: 'done' });
    await waitFor(() => first.exited && second.exited);
  });

  it('starts a host of its own for an acquire with other grants, and kills a host dropped before any took it', async () => {
    const a = folder('a');
    const b = folder('b');
    const ahead = pool.startAhead({ read: [a], write: [a] }, a);
    const other = pool.acquire({ read: [b], write: [b] }, b);
    assert.notEqual(other, ahead);
    pool.dropAhead(ahead);
    await waitFor(() => ahead.exited);
    const fresh = pool.acquire({ read: [a], write: [a] }, a);
    assert.ok(fresh !== ahead && !fresh.exited);
    for (const host of [other, fresh]) host.kill({ cause: 'stopped', message: 'done' });
    await waitFor(() => other.exited && fresh.exited);
  });
});
