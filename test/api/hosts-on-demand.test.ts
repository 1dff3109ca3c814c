// Issue 44, hosts on demand: a source's host starts when the source has work and parks when idle
// (`--host-idle`), at most `--warm-hosts` run, and nothing a source keeps lives only in its host:
// its db, dedupe cache, timers and `/tmp` survive a park, and a kill -9 while it is parked. A
// restart starts no host, so the service answers while many sources come up. No timings here: a
// short `--host-idle`, then each test waits for the state it needs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cli, cliEnv } from '../helpers/cli';
import { hostOf, hostPids, spoutsStoppedAfter, trailBefore, waitParked } from '../helpers/parked-hosts';
import { deploySource, ECHO_SOURCE, type SpoutProcess, spawnServeEarly, tempDir, waitFor } from '../helpers/service';

/**
 * A source (written for this test) whose every run counts in `this.db`, appends the count to a
 * file in its `/tmp`, and emits the count, the file as the run found it, its trigger and its
 * host's pid; and an event with a fixed id, which the `unique` dedupe keeps once ever.
 */
const KEEPER = (timer: string) => `
import fs from "node:fs";
export default {
  name: "Keeper",
  version: "0.0.1",
  dedupe: "unique",
  props: { http: "$.interface.http", db: "$.service.db"${timer ? `, timer: { type: "$.interface.timer", default: ${timer} }` : ''} },
  hooks: {
    async deploy() {
      this.db.set("n", 0);
      fs.writeFileSync("/tmp/trail.txt", "deployed;");
    },
  },
  async run(event) {
    const n = this.db.get("n") + 1;
    this.db.set("n", n);
    const trail = fs.readFileSync("/tmp/trail.txt", "utf8");
    fs.appendFileSync("/tmp/trail.txt", n + ";");
    const trigger = event.interval_seconds ? "timer" : event.method ? "http" : "run";
    this.$emit({ n, trail, trigger, pid: process.pid }, { id: "run-" + n, summary: trigger });
    this.$emit({ once: true }, { id: "once" });
  },
};`;

interface Run {
  n: number;
  trail: string;
  trigger: string;
  pid: number;
}

/** The source's runs, oldest first, and how many `once` events were kept. */
async function runsOf(spout: SpoutProcess, id: string): Promise<{ runs: Run[]; once: number }> {
  const events = ((await spout.api('GET', `/v1/sources/${id}/event_summaries?limit=100`)).json.data as Array<{ event: Run & { once?: boolean } }>).map((e) => e.event).reverse();
  return { runs: events.filter((e) => !e.once), once: events.filter((e) => e.once).length };
}

/** Asserts runs 1..k each found the db and `/tmp` as the previous one left them. */
function assertKept(runs: Run[]): void {
  assert.deepEqual(
    runs.map((r) => r.n),
    runs.map((_, i) => i + 1),
  );
  for (const r of runs) assert.equal(r.trail, trailBefore(r.n), `run ${r.n} found /tmp as the runs before left it`);
}

const spoutWith = spoutsStoppedAfter();

describe('hosts on demand', () => {
  it('wakes a parked source for a request and a run, with its db, dedupe and /tmp as they were', async () => {
    const spout = await spoutWith(['--host-idle', '1']);
    const { id, endpoint } = await deploySource(spout, KEEPER(''));
    await waitParked(spout, id);

    assert.equal((await fetch(endpoint, { method: 'POST', body: '{}' })).status, 200);
    await waitParked(spout, id);
    const run = await spout.api('POST', `/v1/sources/${id}/run`);
    assert.equal(run.status, 200, JSON.stringify(run.json));
    assert.equal(run.json.data.error, null);

    const { runs, once } = await runsOf(spout, id);
    // Run now on an HTTP source sends it a request (docs/api.md), so both runs are HTTP runs.
    assert.deepEqual(
      runs.map((r) => r.trigger),
      ['http', 'http'],
    );
    assertKept(runs);
    assert.notEqual(runs[0]!.pid, runs[1]!.pid, 'each run had a host of its own: the first was parked');
    assert.equal(once, 1, 'the dedupe cache outlived the park');
  });

  it('fires timers from a parked source on schedule, each firing finding what the last one kept', async () => {
    const spout = await spoutWith(['--host-idle', '1']);
    const { id } = await deploySource(spout, KEEPER('{ intervalSeconds: 3 }'));
    // Parked between firings: firings from hosts of their own.
    const { runs, once } = await waitFor(
      async () => {
        const seen = await runsOf(spout, id);
        return new Set(seen.runs.map((r) => r.pid)).size >= 3 ? seen : null;
      },
      60_000,
      'three firings, each in a host woken for it',
    );
    assert.ok(runs.every((r) => r.trigger === 'timer'));
    assertKept(runs);
    assert.equal(once, 1);
    const view = (await spout.api('GET', `/v1/sources/${id}`)).json.data;
    assert.ok(view.timers.timer.next_run_at > 0, 'a parked source keeps its next firing');
  });

  it('keeps at most --warm-hosts running, the least recently used parking first', async () => {
    const spout = await spoutWith(['--warm-hosts', '2']);
    const sources: Array<{ id: string; endpoint: string }> = [];
    for (let i = 0; i < 4; i++) sources.push(await deploySource(spout));
    for (const s of [...sources, sources[0]!]) {
      assert.equal((await fetch(s.endpoint, { method: 'POST', body: '{}' })).status, 200);
      const states = await Promise.all(sources.map((x) => hostOf(spout, x.id)));
      assert.ok(states.filter((h) => h === 'running').length <= 2, `at most 2 running: ${states.join(', ')}`);
      assert.equal(states[sources.indexOf(s)], 'running', 'the source just used runs');
    }
    // Used last: the first source, and the fourth before it.
    assert.deepEqual(await Promise.all(sources.map((x) => hostOf(spout, x.id))), ['running', 'parked', 'parked', 'running']);
    // The processes agree once the parked hosts have ended (a parked host exits after its state is
    // saved): two sources' hosts, and at most the spare and the host booted for the last deployed
    // source's next save beside them.
    await waitFor(() => hostPids(spout).length <= 4, 30_000, 'at most 4 host processes once parked hosts end');
  });

  it('loses nothing when the service is killed (-9) while its sources are parked', async () => {
    const dataDir = tempDir();
    let spout = await spoutWith(['--host-idle', '1'], dataDir);
    const { id, endpoint } = await deploySource(spout, KEEPER('{ intervalSeconds: 3600 }'));
    assert.equal((await fetch(endpoint, { method: 'POST', body: '{}' })).status, 200);
    await waitParked(spout, id);
    const nextRun = (await spout.api('GET', `/v1/sources/${id}`)).json.data.timers.timer.next_run_at as number;
    await spout.kill();
    await waitFor(() => hostPids(spout).length === 0, 10_000, 'its hosts to end with it');

    spout = await spoutWith(['--host-idle', '1'], dataDir);
    const view = (await spout.api('GET', `/v1/sources/${id}`)).json.data;
    assert.equal(view.host, 'parked', 'a restart starts no host');
    assert.equal(view.timers.timer.next_run_at, nextRun, 'its timer keeps its schedule');
    assert.equal((await fetch(endpoint.replace(/^http:\/\/[^/]+/, spout.url), { method: 'POST', body: '{}' })).status, 200);
    const { runs, once } = await runsOf(spout, id);
    assertKept(runs);
    assert.equal(runs.length, 2);
    assert.equal(once, 1);
  });

  it('answers /v1 and endpoints while 50 sources come up: no host starts first, no 503', async () => {
    const dataDir = tempDir();
    const first = await spoutWith(['--warm-hosts', '2'], dataDir);
    const paths: string[] = [];
    for (let i = 0; i < 50; i += 5) {
      const batch = await Promise.all(Array.from({ length: 5 }, () => deploySource(first, ECHO_SOURCE)));
      paths.push(...batch.map((s) => new URL(s.endpoint).pathname));
    }
    await first.stop();

    const { base, child, output } = await spawnServeEarly(dataDir);
    const statuses: number[] = [];
    let listed: Array<{ host: string }> = [];
    try {
      // Knock from the start; refused connections are fine until the port answers.
      await waitFor(
        async () => {
          try {
            const res = await fetch(`${base}/v1/users/me/sources?limit=100`, { headers: { authorization: 'Bearer test-key-123' } });
            statuses.push(res.status);
            if (res.status === 200) listed = ((await res.json()) as { data: Array<{ host: string }> }).data;
            else await res.arrayBuffer();
            return res.status === 200;
          } catch {
            return false;
          }
        },
        60_000,
        'the first /v1 answer',
      );
      assert.equal(listed.length, 50);
      assert.ok(
        listed.every((s) => s.host === 'parked'),
        'the service answered before any source host started',
      );
      // Requests to parked sources wait for their hosts, all at once.
      const answers = await Promise.all(paths.slice(0, 10).map((p) => fetch(base + p, { method: 'POST', body: 'ping' }).then((r) => r.status)));
      assert.deepEqual(answers, Array(10).fill(200));
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.on('exit', resolve));
    }
    assert.deepEqual(
      statuses.filter((s) => s !== 200),
      [],
      'never a 503 while sources come up',
    );
    assert.doesNotMatch(output(), /internal error/);
  });

  it('shows the host state in spout list sources and the settings in GET /v1/settings', async () => {
    const spout = await spoutWith(['--host-idle', '1', '--warm-hosts', '3']);
    const { id } = await deploySource(spout);
    await waitParked(spout, id);
    const env = cliEnv(spout);
    const listed = await cli(['list', 'sources'], env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /HOST/);
    assert.match(listed.stdout.split('\n').find((l) => l.includes(id)) ?? '', /\bparked\b/);
    const settings = (await spout.api('GET', '/v1/settings')).json.data;
    assert.equal(settings.host_idle_seconds, 1);
    assert.equal(settings.warm_hosts, 3);
  });
});
