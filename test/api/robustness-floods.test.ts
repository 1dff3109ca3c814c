// Issue 22: what a component writes is bounded. A run that logs 16 MB lines, events of 40 MB, a
// this.db value over its limit, and a host that rewrites its own messages leave the service up,
// its memory flat, nothing over a limit on disk, and a data dir that restarts; each run over a
// limit is told which.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { deploySource, type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';

/** A source (written for this test) that floods what its request names. */
const FLOOD = `import fs from "node:fs";
export default {
  name: "Flood", version: "0.1.0", props: { http: "$.interface.http", db: "$.service.db" },
  async run(event) {
    const how = event.query.how;
    if (how === "logs") { const line = "x".repeat(16 << 20); for (let i = 0; i < 100; i++) console.log(line); }
    if (how === "big-events") { for (let i = 0; i < 15; i++) this.$emit({ s: "x".repeat(40 << 20) }); }
    if (how === "many-events") { for (let i = 0; i < 20; i++) this.$emit({ i, s: "y".repeat(5 << 20) }); }
    if (how === "db-value") this.db.set("big", "z".repeat(2 << 20));
    if (how === "db-forged") {
      // Rewrites the host's own report of this run: this.db gets a value that is not JSON.
      const stringify = JSON.stringify;
      JSON.stringify = function (value, ...rest) {
        if (value && value.type === "done") value = { ...value, dbWrites: [["kept", "{not json"]] };
        return stringify.call(this, value, ...rest);
      };
      this.db.set("kept", "forged");
    }
    if (how === "db-ok") this.db.set("kept", "fine");
    if (how === "big-frame") {
      // Writes a message of 100 MB straight to the host's channel, as a hostile component could.
      const head = Buffer.alloc(4);
      head.writeUInt32LE(100 << 20);
      fs.writeSync(3, head);
      const chunk = Buffer.alloc(1 << 20, 32);
      for (let i = 0; i < 100; i++) try { fs.writeSync(3, chunk); } catch { break; }
    }
    this.$emit({ after: how ?? null });
  },
};`;

/** Peak resident memory of the service so far, MB (Linux: VmHWM). */
function peakMb(spout: SpoutProcess): number {
  return Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${spout.child.pid}/status`, 'utf8'))?.[1]) / 1024;
}

/** Runs `during` against a fresh service with the Flood source deployed, then `after` against a restart on the same data dir. */
async function floodThenRestart(during: (spout: SpoutProcess, source: { id: string; endpoint: string }) => Promise<void>, after: (spout: SpoutProcess, sourceId: string) => Promise<void>): Promise<void> {
  const dataDir = tempDir();
  const spout = await startSpout({ dataDir });
  let sourceId = '';
  try {
    const source = await deploySource(spout, FLOOD);
    sourceId = source.id;
    await during(spout, source);
  } finally {
    await spout.stop();
  }
  const again = await startSpout({ dataDir });
  try {
    await after(again, sourceId);
  } finally {
    await again.stop();
  }
}

describe('floods from a component', () => {
  it('log and event floods leave the service up, its memory flat, and a data dir that restarts', async () => {
    await floodThenRestart(
      async (spout, source) => {
        const run = async (how: string) => {
          const res = await fetch(`${source.endpoint}?how=${how}`, { method: 'POST' });
          assert.equal(res.status, 200);
        };
        const invocations = async () => (await spout.api('GET', `/v1/sources/${source.id}/invocations?limit=100`)).json.data as Array<{ error: { message: string } | null; logs: unknown[] }>;
        for (let i = 0; i < 6; i++) await run('logs');
        await waitFor(async () => (await invocations()).length === 6, 30_000, 'six flooding runs recorded');
        const logs = (await spout.api('GET', `/v1/sources/${source.id}/logs?limit=100`)).json.data as Array<{ message: string }>;
        assert.ok(
          logs.some((l) => /^x+ … \[cut: 16777216 bytes; log lines are kept up to 65536 bytes\]$/.test(l.message)),
          'a long line is cut and marked',
        );
        assert.ok(
          logs.some((l) => /further log lines of this run are dropped: a run may log 6 MB/.test(l.message)),
          'the rest of the flood is dropped, saying so',
        );
        assert.ok(logs.every((l) => l.message.length < 70_000));

        await run('big-events');
        const bigError = await waitFor(async () => (await invocations())[0]?.error?.message, 30_000, 'the run with 40 MB events');
        assert.match(bigError, /\$emit: the event is 41943048 bytes as JSON; the limit is 6 MB per event/);
        await run('many-events');
        const manyError = await waitFor(async () => ((await invocations()).length === 8 ? (await invocations())[0]?.error?.message : undefined), 30_000, 'the run with many 5 MB events');
        assert.match(manyError, /this run has emitted more than 32 MB of events, the limit of one run/);
        const stored = (await spout.api('GET', `/v1/sources/${source.id}/event_summaries?limit=100&expand=event`)).json.data as Array<{ event: { i?: number; after?: string } }>;
        assert.deepEqual(
          stored.filter((e) => e.event.i !== undefined).map((e) => e.event.i),
          [5, 4, 3, 2, 1, 0],
          'what a run emitted within the limit before it went over is kept, as on Pipedream',
        );
        assert.equal(stored.filter((e) => e.event.after === 'logs').length, 6, 'the log floods ran to their end');

        await run('big-frame');
        await waitFor(
          async () => {
            const lines = (await spout.api('GET', `/v1/sources/${source.id}/logs?limit=100`)).json.data as Array<{ message: string }>;
            return lines.some((l) => /broke its channel \(a message of 104857600 bytes is over the limit of 67108864\) and was stopped/.test(l.message));
          },
          15_000,
          'the host that wrote a 100 MB message to be stopped',
        );
        assert.equal((await spout.api('GET', '/v1/users/me/sources')).status, 200, 'the service answers');
        // 9.6 GB of log lines and 700 MB of events were written: the service held at most one run's
        // worth at a time (the biggest, 30 MB of events in one message, and its copies on the way to disk).
        const peak = peakMb(spout);
        assert.ok(peak < 700, `peak resident memory of the service: ${Math.round(peak)} MB`);
        const events = fs.statSync(path.join(spout.dataDir, 'events', `${source.id}.jsonl`)).size;
        assert.ok(events < 32 * 1024 * 1024, `events file: ${events} bytes`);
      },
      async (again, sourceId) => {
        assert.equal((await again.api('GET', `/v1/sources/${sourceId}/event_summaries?limit=1`)).json.page_info.total_count, 12);
      },
    );
  });

  it('a this.db value over its limit, or one a host forged that is not JSON, is refused and never stored', async () => {
    await floodThenRestart(
      async (spout, source) => {
        const errorOf = async (how: string) => {
          const before = (await spout.api('GET', `/v1/sources/${source.id}/invocations?limit=1`)).json.page_info.total_count as number;
          await fetch(`${source.endpoint}?how=${how}`, { method: 'POST' });
          return waitFor(
            async () => {
              const page = (await spout.api('GET', `/v1/sources/${source.id}/invocations?limit=1`)).json;
              return page.page_info.total_count > before ? { error: page.data[0].error?.message ?? null } : undefined;
            },
            15_000,
            `the ${how} run`,
          );
        };
        assert.equal((await errorOf('db-ok')).error, null);
        assert.match((await errorOf('db-value')).error ?? '', /db\.set\("big"\): the value is 2097154 bytes as JSON; the limit is 1 MB per value/);
        assert.match((await errorOf('db-forged')).error ?? '', /this\.db: the value of key "kept" is not valid JSON, so nothing this run set was stored/);
        assert.equal(JSON.parse(fs.readFileSync(path.join(spout.dataDir, 'db', `${source.id}.json`), 'utf8')).kept, 'fine');
      },
      async (again, sourceId) => {
        // The source still loads: its db file holds only what was checked.
        const logs = (await again.api('GET', `/v1/sources/${sourceId}/logs?limit=100`)).json.data as Array<{ message: string }>;
        assert.ok(!logs.some((l) => /could not load/.test(l.message)));
        assert.doesNotMatch(again.output(), /damaged/);
      },
    );
  });
});
