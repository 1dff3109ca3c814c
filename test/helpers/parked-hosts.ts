// What the tests of parked hosts and the spare host share (test/api/hosts-on-demand.test.ts,
// test/api/spare-host.test.ts): services stopped after the file's tests, host processes found in
// /proc, and waiting for a source's host to park.
import fs from 'node:fs';
import path from 'node:path';
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

/** Where a source's own folder (`dirs/<id>`) is now: in place, or moved into a spare host's folder while that host holds the source (runtime/sandbox/spare-folders.ts). */
export function sourceFolderNow(dataDir: string, id: string): string {
  const home = path.join(dataDir, 'dirs', id);
  const records = path.join(dataDir, 'spare-owners');
  // A host booted ahead for the next save makes an empty folder in place meanwhile: the spare's record comes first.
  if (!fs.existsSync(records)) return home;
  for (const name of fs.readdirSync(records)) {
    const { from } = JSON.parse(fs.readFileSync(path.join(records, name), 'utf8')) as { from: string };
    if (from === home) return path.join(dataDir, 'spares', path.basename(name, '.json'), 'own');
  }
  return home;
}
