// What the tests of parked hosts and the spare host share (test/api/hosts-on-demand.test.ts,
// test/api/spare-host.test.ts): services stopped after the file's tests, host processes found in
// /proc, and waiting for a source's host to park.
import fs from 'node:fs';
import { after } from 'node:test';
import { type SpoutProcess, startSpout, waitFor } from './service';

/** A starter of services, each stopped once the test file's tests are done. */
export function spoutsStoppedAfter(): (args: string[], dataDir?: string) => Promise<SpoutProcess> {
  const started: SpoutProcess[] = [];
  after(async () => {
    await Promise.all(started.map((s) => s.stop()));
  });
  return async (args, dataDir) => {
    const spout = await startSpout({ args, dataDir });
    started.push(spout);
    return spout;
  };
}

/** Pids of the component hosts a service runs now whose command line holds `mark` (default: its data dir; Linux: /proc). */
export function hostPids(spout: SpoutProcess, mark = spout.dataDir): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes('host.cjs') && cmdline.includes(mark)) pids.push(Number(entry));
    } catch {
      // ended meanwhile
    }
  }
  return pids;
}

/** A source's host state: running, starting or parked. */
export async function hostOf(spout: SpoutProcess, id: string): Promise<string> {
  return (await spout.api('GET', `/v1/sources/${id}`)).json.data.host as string;
}

export async function waitParked(spout: SpoutProcess, id: string): Promise<void> {
  await waitFor(async () => (await hostOf(spout, id)) === 'parked', 30_000, `${id}'s host to park`);
}

/** The trail a run finds after runs 1..n-1: what the deploy hook wrote, then each count. */
export function trailBefore(n: number): string {
  return `deployed;${Array.from({ length: n - 1 }, (_, i) => `${i + 1};`).join('')}`;
}
