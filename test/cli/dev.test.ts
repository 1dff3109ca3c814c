// `spout dev` (docs/cli.md): deploy, redeploy on save keeping the dc_ id and db, errors
// reported while the last good version keeps serving (and a save back to it says the error is over), Ctrl-C leaves the source, --dc reattaches,
// saves in quick succession end with the last one serving.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cliEnv, startCli } from '../helpers/cli';
import { type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';

/** An HTTP source answering `<greeting> <n>`, n counted in this.db; the greeting comes from an imported file. */
const SOURCE = `import { greeting } from "./lib/greeting.mjs";
export default {
  name: "Dev counter",
  version: "0.1.0",
  props: { http: { type: "$.interface.http", customResponse: true }, db: "$.service.db" },
  async run(event) {
    const n = (this.db.get("n") ?? 0) + 1;
    this.db.set("n", n);
    console.log("request " + n);
    this.$emit({ greeting, n }, { summary: greeting + " " + n });
    this.http.respond({ status: 200, body: greeting + " " + n });
  },
};
`;

describe('spout dev', () => {
  let spout: SpoutProcess;
  let env: Record<string, string | undefined>;
  before(async () => {
    spout = await startSpout();
    env = cliEnv(spout);
  });
  after(async () => void (await spout.stop()));

  const answer = async (url: string) => (await fetch(url)).text();

  it('deploys, redeploys on every save of the file or an import, and keeps the last good version on errors', async () => {
    const dir = tempDir('spout-dev-');
    fs.mkdirSync(path.join(dir, 'lib'));
    const file = path.join(dir, 'counter.mjs');
    const lib = path.join(dir, 'lib', 'greeting.mjs');
    fs.writeFileSync(lib, 'export const greeting = "v1";\n');
    fs.writeFileSync(file, SOURCE);
    const dev = startCli(['dev', 'counter.mjs', '--json'], env, { cwd: dir });
    try {
      const deployed = await dev.waitForLine((l) => l.type === 'deployed', 'the deployed line');
      const id = deployed.source.id as string;
      const endpoint = deployed.source.configured_props.http.endpoint_url as string;
      assert.equal(await answer(endpoint), 'v1 1');
      // Logs and events stream to the terminal.
      await dev.waitForLine((l) => l.type === 'event' && l.event.event.greeting === 'v1', 'the event');
      await dev.waitForLine((l) => l.type === 'log' && l.log.message === 'request 1', 'the log line');

      // An edit of an imported file is live shortly (same source, same db).
      fs.writeFileSync(lib, 'export const greeting = "v2";\n');
      await waitFor(async () => (await answer(endpoint)).startsWith('v2'), 5000, 'the edit to be live');
      const updated = await dev.waitForLine((l) => l.type === 'updated', 'the updated line');
      assert.equal(updated.source.id, id);

      // A syntax error is reported with file:line; the previous version keeps serving.
      fs.writeFileSync(file, SOURCE.replace('const n =', 'const n = = '));
      const error = await dev.waitForLine((l) => l.type === 'error', 'the error line');
      assert.match(error.errors.join('\n'), /counter\.mjs:7:\d+/);
      assert.match(error.message, new RegExp(`${id} keeps running`));
      assert.match(await answer(endpoint), /^v2 \d+$/);

      // A validation error too.
      fs.writeFileSync(file, SOURCE.replace('version: "0.1.0",', ''));
      await waitFor(() => dev.lines().filter((l) => l.type === 'error').length >= 2, 5000, 'the validation error');
      assert.match(JSON.stringify(dev.lines().filter((l) => l.type === 'error')[1]), /version/);
      assert.match(await answer(endpoint), /^v2 \d+$/);

      // Fixed: the new code runs, and this.db kept counting across every redeploy.
      fs.writeFileSync(file, SOURCE.replace('greeting + " " + n });\n  },', 'greeting + "!" + n });\n  },'));
      await waitFor(async () => /^v2!\d+$/.test(await answer(endpoint)), 5000, 'the fixed version to be live');
      const n = Number((await answer(endpoint)).split('!')[1]);
      assert.ok(n >= 5, `this.db kept its count (got ${n})`);

      // Ctrl-C stops watching and leaves the source deployed.
      assert.equal(await dev.interrupt(), 0);
      assert.ok(dev.lines().some((l) => l.type === 'stopped' && l.source_id === id));
      assert.equal((await spout.api('GET', `/v1/sources/${id}`)).status, 200);
      assert.match(await answer(endpoint), /^v2!\d+$/);
    } finally {
      dev.child.kill('SIGKILL');
    }
  });

  it('says so when a save brings the file back to the running version after an error', async () => {
    const dir = tempDir('spout-dev-');
    fs.mkdirSync(path.join(dir, 'lib'));
    fs.writeFileSync(path.join(dir, 'lib', 'greeting.mjs'), 'export const greeting = "same";\n');
    const file = path.join(dir, 'same.mjs');
    fs.writeFileSync(file, SOURCE);
    const dev = startCli(['dev', 'same.mjs'], env, { cwd: dir });
    const lastLine = () => dev.output().split('\n--- stderr ---')[0]!.trim().split('\n').at(-1) ?? '';
    try {
      await waitFor(() => /Watching same\.mjs/.test(dev.output()), 15_000, 'the watching line');
      fs.writeFileSync(file, SOURCE.replace('const n =', 'const n = = '));
      await waitFor(() => /error same\.mjs has errors/.test(dev.output()), 10_000, 'the error');
      // Reverted by hand (an undo in the editor): nothing to deploy, and the terminal says the error is over.
      fs.writeFileSync(file, SOURCE);
      await waitFor(() => /same\.mjs matches the running version 1: nothing to deploy; the error above is fixed/.test(lastLine()), 10_000, 'the unchanged line last, not the error');
      assert.equal(await dev.interrupt(), 0);
    } finally {
      dev.child.kill('SIGKILL');
    }
  });

  it('--dc reattaches to a deployed source, keeping its id and endpoint', async () => {
    const dir = tempDir('spout-dev-');
    fs.mkdirSync(path.join(dir, 'lib'));
    fs.writeFileSync(path.join(dir, 'lib', 'greeting.mjs'), 'export const greeting = "first";\n');
    fs.writeFileSync(path.join(dir, 'a.mjs'), SOURCE.replace('Dev counter', 'Reattach me'));
    const first = startCli(['dev', 'a.mjs', '--json'], env, { cwd: dir });
    let id: string;
    let endpoint: string;
    try {
      const deployed = await first.waitForLine((l) => l.type === 'deployed', 'the deployed line');
      id = deployed.source.id;
      endpoint = deployed.source.configured_props.http.endpoint_url;
      assert.equal(await answer(endpoint), 'first 1');
      assert.equal(await first.interrupt(), 0);
    } finally {
      first.child.kill('SIGKILL');
    }
    fs.writeFileSync(path.join(dir, 'lib', 'greeting.mjs'), 'export const greeting = "second";\n');
    // By a prefix of the name slug.
    const again = startCli(['dev', '--dc', 'reattach', 'a.mjs', '--json'], env, { cwd: dir });
    try {
      const attached = await again.waitForLine((l) => l.type === 'attached', 'the attached line');
      assert.equal(attached.source.id, id);
      assert.equal(attached.source.configured_props.http.endpoint_url, endpoint);
      assert.equal(await answer(endpoint), 'second 2');
      fs.writeFileSync(path.join(dir, 'lib', 'greeting.mjs'), 'export const greeting = "third";\n');
      await waitFor(async () => (await answer(endpoint)).startsWith('third'), 5000, 'the edit to be live');
      assert.equal(await again.interrupt(), 0);
    } finally {
      again.child.kill('SIGKILL');
    }
  });

  it('saves in quick succession: the last one saved is the one that serves', async () => {
    const dir = tempDir('spout-dev-');
    const file = path.join(dir, 'quick.mjs');
    const version = (n: number) => SOURCE.replace('import { greeting } from "./lib/greeting.mjs";', `const greeting = "save${n}";`);
    fs.writeFileSync(file, version(0));
    const dev = startCli(['dev', 'quick.mjs', '--json'], env, { cwd: dir });
    try {
      const deployed = await dev.waitForLine((l) => l.type === 'deployed', 'the deployed line');
      const endpoint = deployed.source.configured_props.http.endpoint_url as string;
      assert.match(await answer(endpoint), /^save0 /);
      // Each write a turn of the event loop after the last: some land while a redeploy is under way.
      for (let n = 1; n <= 6; n++) {
        fs.writeFileSync(file, version(n));
        await new Promise((r) => setImmediate(r));
      }
      await waitFor(async () => (await answer(endpoint)).startsWith('save6 '), 10_000, 'the last save to be live');
      // Once the last save is deployed, nothing older replaces it: the next save is deployed after it.
      fs.writeFileSync(file, version(7));
      await waitFor(async () => (await answer(endpoint)).startsWith('save7 '), 10_000, 'the save after it to be live');
      assert.equal(await dev.interrupt(), 0);
    } finally {
      dev.child.kill('SIGKILL');
    }
  });
});
