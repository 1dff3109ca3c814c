// Issue 22: hosts on a leash. No host outlives the service (kill -9 included, with its JavaScript
// busy), a start stops hosts an earlier run left behind, and what code does after its run
// returned counts against the source's limits: CPU time, open sockets (20 000 from components
// leave /v1 answering), its folders.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { commandLine, hostMarker, hostsFile, readPids } from '../../runtime/sandbox/host-records';
import { deploySource, type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';

/** A source (written for this test) that leaves a loop running after its run returns. */
const SPIN = `export default { name: "Spin", version: "0.1.0", props: { http: "$.interface.http" },
  async run() { setTimeout(() => { for (;;) {} }, 10); this.$emit({ spinning: true }); } };`;

const alive = (pid: number) => commandLine(pid) !== null;

async function hostPids(spout: SpoutProcess, count: number): Promise<number[]> {
  return waitFor(
    () => {
      const pids = readPids(hostsFile(spout.dataDir)).filter(alive);
      return pids.length >= count ? pids : undefined;
    },
    10_000,
    `${count} running hosts`,
  );
}

const logsOf = async (spout: SpoutProcess, id: string) => ((await spout.api('GET', `/v1/sources/${id}/logs?limit=100`)).json.data as Array<{ message: string }>).map((l) => l.message).join('\n');

describe('hosts on a leash', () => {
  it('no host outlives a service killed with kill -9, also one whose JavaScript is busy', async () => {
    const spout = await startSpout();
    const spinner = await deploySource(spout, SPIN);
    await deploySource(spout);
    assert.equal((await fetch(spinner.endpoint, { method: 'POST' })).status, 200);
    const pids = await hostPids(spout, 2);
    await spout.kill();
    await waitFor(() => pids.every((pid) => !alive(pid)), 10_000, `hosts ${pids.join(', ')} to end with the service`);
  });

  it('no host outlives a service stopped with SIGTERM or SIGINT while one spins', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const spout = await startSpout();
      const spinner = await deploySource(spout, SPIN);
      await fetch(spinner.endpoint, { method: 'POST' });
      const pids = await hostPids(spout, 1);
      spout.child.kill(signal);
      await new Promise((resolve) => spout.child.once('exit', resolve));
      await waitFor(() => pids.every((pid) => !alive(pid)), 10_000, `hosts to end after ${signal}`);
    }
  });

  it('a start stops hosts an earlier run of the same data dir left running', async () => {
    const dataDir = tempDir();
    // Stands in for a host that outlived its service: it carries the data dir's mark.
    const leftover = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '--', hostMarker(dataDir)], { stdio: 'ignore' });
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '--', hostMarker(tempDir())], { stdio: 'ignore' });
    try {
      await waitFor(() => alive(leftover.pid as number) && alive(other.pid as number), 5000, 'the stand-ins');
      fs.writeFileSync(hostsFile(dataDir), JSON.stringify({ pids: [leftover.pid, other.pid] }));
      const spout = await startSpout({ dataDir });
      await spout.stop();
      assert.match(spout.output(), new RegExp(`stopped 1 component host\\(s\\) an earlier run of this data dir left running \\(pid ${leftover.pid}\\)`));
      await waitFor(() => !alive(leftover.pid as number), 5000, 'the leftover host to be stopped');
      assert.ok(alive(other.pid as number), 'a process that is not a host of this data dir is left alone');
    } finally {
      leftover.kill('SIGKILL');
      other.kill('SIGKILL');
    }
  });

  it("code left running after its run returned is stopped at the source's limit, with a message in its log", async () => {
    const spout = await startSpout();
    try {
      const spinner = await deploySource(spout, SPIN, { timeout_seconds: 1 });
      await fetch(spinner.endpoint, { method: 'POST' });
      await waitFor(async () => /code left running after its run returned \(a loop in a timer or a promise\?\) kept the CPU busy: more than 1 s of CPU time/.test(await logsOf(spout, spinner.id)), 60_000, 'the stray loop to be stopped');
      assert.equal((await fetch(spinner.endpoint, { method: 'POST' })).status, 200, 'the next run gets a new host');
    } finally {
      await spout.stop();
    }
  });

  it("a source's own folders are held to --component-disk: no file larger, and a host over it is stopped", async () => {
    const spout = await startSpout({ args: ['--component-disk', '8'] });
    try {
      const writer = await deploySource(
        spout,
        `import fs from "node:fs"; import os from "node:os"; import path from "node:path";
        export default { name: "Writer", version: "0.1.0", props: { http: "$.interface.http" },
          async run(event) {
            const chunk = Buffer.alloc(4 << 20, 1);
            if (event.query.how === "big") { fs.writeFileSync(path.join(os.tmpdir(), "big"), Buffer.concat([chunk, chunk, chunk])); }
            else for (let i = 0; i < 3; i++) fs.writeFileSync(path.join(os.tmpdir(), "part" + i), chunk);
            this.$emit({ tmp: os.tmpdir() });
          } };`,
      );
      await fetch(`${writer.endpoint}?how=big`, { method: 'POST' });
      await waitFor(async () => /EFBIG: file too large/.test(await logsOf(spout, writer.id)), 10_000, 'the write past the limit to fail');
      await fetch(`${writer.endpoint}?how=many`, { method: 'POST' });
      await waitFor(async () => /its own folders \(.*dirs\/dc_\w+.*\) hold \d+ MB, over the limit of 8 MB \(--component-disk\); its host was stopped/.test(await logsOf(spout, writer.id)), 15_000, 'the host to be stopped');
      const tmp = ((await spout.api('GET', `/v1/sources/${writer.id}/event_summaries?expand=event&limit=1`)).json.data[0].event as { tmp: string }).tmp;
      // Its code calls its temp folder `/tmp` (as on Pipedream); the folder itself is in its own folder, under the same limit.
      assert.equal(tmp, '/tmp', "os.tmpdir() is the source's own temp folder");
      assert.ok(fs.statSync(path.join(spout.dataDir, 'dirs', writer.id, '.tmp')).isDirectory());
      assert.match(await logsOf(spout, writer.id), /its host was stopped and its temp folder \(\/tmp to its code\) emptied/);
    } finally {
      await spout.stop();
    }
  });

  it('20 000 sockets opened by components leave /v1 answering', async () => {
    const spout = await startSpout();
    try {
      const opener = `import net from "node:net";
        export default { name: "Opener", version: "0.1.0", props: { http: "$.interface.http" },
          async run() {
            const { hostname, port } = new URL(this.http.endpoint);
            const sockets = [];
            let refused = null;
            for (let i = 0; i < 10000 && !refused; i++) {
              await new Promise((resolve) => {
                const socket = net.connect(Number(port), hostname, resolve);
                socket.on("error", (err) => { refused = err.code; resolve(); });
                sockets.push(socket);
              });
            }
            globalThis.held = sockets;
            this.$emit({ opened: sockets.length - (refused ? 1 : 0), refused });
          } };`;
      const sources = [await deploySource(spout, opener), await deploySource(spout, opener)];
      const runs = sources.map((s) => fetch(s.endpoint, { method: 'POST' }));
      const answers: number[] = [];
      const done = Promise.all(runs);
      let finished = false;
      void done.then(() => (finished = true));
      while (!finished) {
        answers.push((await spout.api('GET', '/v1/users/me/sources')).status);
        await new Promise((r) => setTimeout(r, 50));
      }
      for (const s of sources) {
        const event = await waitFor(async () => (await spout.api('GET', `/v1/sources/${s.id}/event_summaries?expand=event&limit=1`)).json.data[0]?.event as { opened: number; refused: string } | undefined, 30_000, 'the opener to end');
        assert.equal(event.refused, 'EMFILE', 'a host reaches its own limit of open files');
        assert.ok(event.opened < 1024, `opened ${event.opened}`);
        await waitFor(async () => /held \d+ open files and sockets, the limit of 1024 a host may hold/.test(await logsOf(spout, s.id)), 10_000, 'the host holding them to be stopped');
      }
      assert.ok(answers.length > 0 && answers.every((s) => s === 200), `/v1 answered ${JSON.stringify([...new Set(answers)])}`);
      assert.equal((await spout.api('GET', '/v1/users/me/sources')).status, 200);
      const serviceFds = fs.readdirSync(`/proc/${spout.child.pid}/fd`).length;
      assert.ok(serviceFds < 3000, `the service holds ${serviceFds} descriptors`);
    } finally {
      await spout.stop();
    }
  });
});
