// The service's own check of a host's priority (issue 42): the host's wall refuses to go above
// the service's (child/host-guards.ts); a host found there anyway is stopped, saying why.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HostLimits, type WatchedHost } from '../../../runtime/sandbox/host-limits';

function fakeHost(): WatchedHost & { stops: string[] } {
  const stops: string[] = [];
  return { pid: -1, exited: false, busy: false, waiting: false, strayCpuLimitMs: 60_000, ownFolders: [], tempFolder: null, stops, stopForLimit: (message) => void stops.push(message) };
}

describe('host limits: priority', () => {
  const limits = new HostLimits({ memoryMb: 512, diskBytes: 1 << 30, serviceNice: () => 0 });

  it('stops a host whose nice value is below the service’s, naming both', () => {
    const host = fakeHost();
    limits.observe(host, { memory: 1 << 20, ctime: 0, nice: -20 });
    assert.deepEqual(host.stops, ["its component host raised its priority to nice -20, above the service's (nice 0), and was stopped: hosts may not run ahead of the service"]);
  });

  it('leaves a host at or below the service’s priority alone', () => {
    const host = fakeHost();
    limits.observe(host, { memory: 1 << 20, ctime: 0, nice: 0 });
    limits.observe(host, { memory: 1 << 20, ctime: 0, nice: 19 });
    assert.deepEqual(host.stops, []);
  });
});
