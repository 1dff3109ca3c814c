// Issue 44, a fast cold host: a parked source wakes on the spare host started before its request
// (its own folder moved into the spare's neutral folder), with its db, `/tmp` and `dir` files as
// they were; the spare cannot read another source's folder; a kill -9 of the service while a
// source's folder is in a spare's place loses nothing. No timings: each test waits for states.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { hostPids, spoutsStoppedAfter, trailBefore, waitParked } from '../helpers/parked-hosts';
import { deploySource, type SpoutProcess, tempDir, waitFor } from '../helpers/service';

/** Counts runs in `this.db` and appends each count to a file in `/tmp` and one in its `dir` prop; emits what it found, and its host's pid. */
const NOTES = `
import fs from "node:fs";
import os from "node:os";
export default {
  name: "Notes",
  version: "0.0.1",
  props: { http: "$.interface.http", db: "$.service.db", folder: { type: "dir" } },
  hooks: {
    async deploy() {
      this.db.set("n", 0);
      fs.writeFileSync("/tmp/trail.txt", "deployed;");
      fs.mkdirSync(this.folder.path, { recursive: true });
      fs.writeFileSync(this.folder.path + "/notes.txt", "deployed;");
    },
  },
  async run(event) {
    const n = this.db.get("n") + 1;
    this.db.set("n", n);
    const trail = fs.readFileSync("/tmp/trail.txt", "utf8");
    const notes = fs.readFileSync(this.folder.path + "/notes.txt", "utf8");
    fs.appendFileSync("/tmp/trail.txt", n + ";");
    fs.appendFileSync(this.folder.path + "/notes.txt", n + ";");
    this.$emit({ n, trail, notes, pid: process.pid, tmpdir: os.tmpdir(), folder: this.folder.path, real: fs.realpathSync(this.folder.path) });
  },
};`;

/** Tries to read what the request names (another source's file or folder) and emits the error code it met. */
const PRYING = `
import fs from "node:fs";
export default {
  name: "Prying",
  version: "0.0.1",
  props: { http: "$.interface.http" },
  async run(event) {
    const tries = {};
    for (const [name, target] of Object.entries(JSON.parse(event.bodyRaw ?? JSON.stringify(event.body)))) {
      try {
        tries[name] = name.endsWith("dir") ? fs.readdirSync(target) : fs.readFileSync(target, "utf8");
      } catch (err) {
        tries[name] = err.code;
      }
    }
    this.$emit({ tries, pid: process.pid });
  },
};`;

interface Note {
  n: number;
  trail: string;
  notes: string;
  pid: number;
  tmpdir: string;
  folder: string;
  real: string;
}

/** Pids of the spare hosts (granted a neutral folder) a service runs now. */
const sparePids = (spout: SpoutProcess) => hostPids(spout, path.join(spout.dataDir, 'spares'));

/** The one spare host ready now (before the request that will wake a source on it), once it is the service's only host: a host booted for a next save has ended (after `--host-idle`). */
async function readySpare(spout: SpoutProcess): Promise<number> {
  return waitFor(
    () => {
      const [spare, ...more] = sparePids(spout);
      return spare && more.length === 0 && hostPids(spout).length === 1 ? spare : null;
    },
    30_000,
    'the spare host alone',
  );
}

async function eventsOf<T>(spout: SpoutProcess, id: string): Promise<T[]> {
  const data = (await spout.api('GET', `/v1/sources/${id}/event_summaries?limit=100`)).json.data as Array<{ event: T }>;
  return data.map((e) => e.event).reverse();
}

async function post(url: string, body: unknown = {}): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(res.status, 200);
  await res.arrayBuffer();
}

const spoutWith = spoutsStoppedAfter();

describe('the spare host', () => {
  it('wakes a parked source on the spare started before its request, with its db, /tmp and dir files as they were', async () => {
    const spout = await spoutWith(['--host-idle', '1']);
    const { id, endpoint } = await deploySource(spout, NOTES);
    const own = path.join(spout.dataDir, 'dirs', id);
    for (let round = 1; round <= 2; round++) {
      await waitParked(spout, id);
      assert.ok(fs.existsSync(path.join(own, '.tmp', 'trail.txt')), 'a parked source has its folder back');
      const spare = await readySpare(spout);
      await post(endpoint);
      const runs = await eventsOf<Note>(spout, id);
      const run = runs.at(-1)!;
      assert.equal(run.n, round);
      assert.equal(run.pid, spare, 'the host that answered is the spare started before the request');
      assert.equal(run.trail, trailBefore(round), '/tmp as the last run left it');
      assert.equal(run.notes, trailBefore(round), 'the dir prop folder as the last run left it');
      assert.equal(run.tmpdir, '/tmp');
      assert.equal(run.folder, path.join(own, 'folder'), 'its code sees its folder where it lives');
      assert.equal(run.real, run.folder, 'paths fs hands back too');
    }
    await waitParked(spout, id);
    assert.equal(fs.readFileSync(path.join(own, '.tmp', 'trail.txt'), 'utf8'), trailBefore(3));
    assert.equal(fs.readFileSync(path.join(own, 'folder', 'notes.txt'), 'utf8'), trailBefore(3));
  });

  it('keeps a spare that took one source out of every other source folder', async () => {
    const spout = await spoutWith(['--host-idle', '1']);
    const victim = await deploySource(spout, NOTES);
    const prying = await deploySource(spout, PRYING);
    await post(victim.endpoint);
    await waitParked(spout, prying.id);
    await waitParked(spout, victim.id);
    const spare = await readySpare(spout);
    const victimDir = path.join(spout.dataDir, 'dirs', victim.id);
    await post(prying.endpoint, { file: path.join(victimDir, '.tmp', 'trail.txt'), dir: victimDir, sparesdir: path.join(spout.dataDir, 'spares') });
    const [seen] = await eventsOf<{ tries: Record<string, unknown>; pid: number }>(spout, prying.id);
    assert.equal(seen!.pid, spare, 'it ran on the spare');
    assert.deepEqual(seen!.tries, { file: 'ERR_ACCESS_DENIED', dir: 'ERR_ACCESS_DENIED', sparesdir: 'ERR_ACCESS_DENIED' });
    // Used once: once the prying source parks, its spare is gone, and the next is another process.
    await waitParked(spout, prying.id);
    assert.notEqual(await readySpare(spout), spare);
  });

  it('keeps the files of a source updated while its folder is in a spare place', async () => {
    const spout = await spoutWith([]);
    const { id, endpoint } = await deploySource(spout, NOTES);
    await post(endpoint);
    const own = path.join(spout.dataDir, 'dirs', id);
    assert.equal(fs.existsSync(own), false, 'the folder is with the spare');
    // The new version's host starts granted the folder where it lives; the old one ends after the switch.
    const updated = await spout.api('PUT', `/v1/sources/${id}`, { component_code: NOTES.replace('"0.0.1"', '"0.0.2"') });
    assert.equal(updated.status, 200, JSON.stringify(updated.json));
    for (let n = 2; n <= 3; n++) await post(endpoint);
    await spout.stop();
    assert.equal(fs.readFileSync(path.join(own, '.tmp', 'trail.txt'), 'utf8'), trailBefore(4));
    assert.equal(fs.readFileSync(path.join(own, 'folder', 'notes.txt'), 'utf8'), trailBefore(4));
  });

  it('loses nothing when the service is killed (-9) while a source folder is in a spare place', async () => {
    const dataDir = tempDir();
    let spout = await spoutWith([], dataDir);
    const { id, endpoint } = await deploySource(spout, NOTES);
    await post(endpoint);
    const [first] = await eventsOf<Note>(spout, id);
    const own = path.join(dataDir, 'dirs', id);
    // Its running host is a spare: the folder is in the spare's neutral folder, not where it lives.
    assert.equal(fs.existsSync(own), false, 'the folder is with the spare');
    assert.ok(sparePids(spout).includes(first!.pid));
    const sparesBefore = fs.readdirSync(path.join(dataDir, 'spares'));
    await spout.kill();
    await waitFor(() => sparePids(spout).length === 0, 10_000, 'its hosts to end with it');
    assert.equal(fs.existsSync(own), false, 'a kill -9 left the folder in the spare place');

    spout = await spoutWith([], dataDir);
    assert.ok(fs.existsSync(path.join(own, '.tmp', 'trail.txt')), 'the start put the folder back');
    await post(endpoint.replace(/^http:\/\/[^/]+/, spout.url));
    const runs = await eventsOf<Note>(spout, id);
    assert.deepEqual(
      runs.map((r) => r.n),
      [1, 2],
    );
    assert.equal(runs[1]!.trail, trailBefore(2));
    assert.equal(runs[1]!.notes, trailBefore(2));
    const left = fs.readdirSync(path.join(dataDir, 'spares')).filter((name) => sparesBefore.includes(name));
    assert.deepEqual(left, [], 'the neutral folders of the killed service are gone');
  });
});
