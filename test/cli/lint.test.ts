// Errors and warnings through the CLI: `spout lint FILE [--strict]`, and the warnings that
// `spout publish` and `spout deploy` print (docs/runtime.md).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cli, cliEnv, cliJson } from '../helpers/cli';
import { type SpoutProcess, startSpout, tempDir } from '../helpers/service';

/** A source the registry would write: a default on a required prop (a warning), nothing wrong otherwise. */
const WARNED = `export default {
  key: "lint-warned",
  name: "Warned",
  version: "0.1.0",
  props: {
    http: "$.interface.http",
    lang: { type: "string", label: "Language", default: "en" },
  },
  async run(event) { this.$emit({ lang: this.lang }); },
};
`;

const CLEAN = `export default {
  name: "Clean",
  version: "0.1.0",
  type: "action",
  props: { lang: { type: "string", optional: true, default: "en" } },
  async run() { return this.lang; },
};
`;

/** One fixture per rule of the spec or the registry that Spout tolerates, each naming its field in a `// warn: <path>` line. */
const WARNED_DIR = path.resolve('test', 'fixtures', 'components', 'warned');

const BROKEN = `export default {
  name: "Broken",
  version: "0.1.0",
  type: "action",
  props: { count: { type: "number", label: "Count" } },
};
`;

describe('spout lint and warnings in command output', () => {
  let spout: SpoutProcess;
  let env: ReturnType<typeof cliEnv>;
  let dir: string;
  const file = (name: string, text: string) => {
    const f = path.join(dir, name);
    fs.writeFileSync(f, text);
    return f;
  };

  before(async () => {
    spout = await startSpout();
    env = cliEnv(spout);
    dir = tempDir('spout-lint-');
  });
  after(async () => {
    await spout.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('passes a component with warnings, and fails it with --strict', async () => {
    const warned = file('warned.mjs', WARNED);
    const plain = await cli(['lint', warned], env);
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(plain.stdout, /^warning: props\.lang\.default: prop `lang`: default is allowed only on optional props/m);
    assert.match(plain.stdout, /^ok lint-warned 0\.1\.0 \(source\): 0 errors, 1 warning$/m);
    const strict = await cli(['lint', '--strict', warned], env);
    assert.equal(strict.code, 1);
    assert.match(strict.stderr, /warned\.mjs: 0 errors, 1 warning \(--strict: warnings fail\)/);
    assert.equal((await cli(['lint', '--strict', file('clean.mjs', CLEAN)], env)).code, 0);
    // Linting saves nothing.
    assert.deepEqual((await spout.api('GET', '/v1/users/me/components')).json.data, []);
  });

  it('reports every rule the registry breaks that Spout tolerates: a warning by default, a failure under --strict', async () => {
    const files = fs
      .readdirSync(WARNED_DIR)
      .filter((f) => f.endsWith('.mjs'))
      .sort();
    assert.ok(files.includes('http-request-in-source.mjs'), 'the spec keeps http_request props to actions (issue 45)');
    for (const name of files) {
      const fixture = path.join(WARNED_DIR, name);
      const field = /^\/\/ warn: (\S+)/.exec(fs.readFileSync(fixture, 'utf8'))?.[1];
      const plain = await cli(['lint', '--json', fixture], env);
      assert.equal(plain.code, 0, `${name}: ${plain.stdout}${plain.stderr}`);
      const result = JSON.parse(plain.stdout) as { errors: unknown[]; warnings: Array<{ path: string }> };
      assert.deepEqual([result.errors, result.warnings.map((w) => w.path)], [[], [field]], name);
      const strict = await cli(['lint', '--strict', fixture], env);
      assert.equal(strict.code, 1, `${name} passed --strict`);
      assert.match(strict.stdout, new RegExp(`^warning: ${field!.replace(/[.$]/g, '\\$&')}: `, 'm'), name);
    }
  });

  it('fails on errors, listing each, and on a file that does not build', async () => {
    const broken = await cli(['lint', file('broken.mjs', BROKEN)], env);
    assert.equal(broken.code, 1);
    assert.match(broken.stdout, /^error: run: run is required in an action/m);
    assert.match(broken.stdout, /^error: props\.count\.type: prop `count`: "number" is not a prop type/m);
    const json = await cli(['lint', '--json', file('broken2.mjs', BROKEN)], env);
    assert.deepEqual(
      JSON.parse(json.stdout).errors.map((e: { path: string }) => e.path),
      ['run', 'props.count.type'],
    );
    const syntax = await cli(['lint', file('syntax.mjs', 'export default {')], env);
    assert.equal(syntax.code, 1);
    assert.match(syntax.stdout, /^error: .*syntax\.mjs:1:\d+: Expected .* but found end of file/m);
  });

  it('prints the warnings of publish and deploy on stderr, keeping --json stdout clean', async () => {
    const warned = file('deployed.mjs', WARNED);
    const published = await cli(['publish', warned], env);
    assert.equal(published.code, 0, published.stderr);
    assert.match(published.stderr, /^warning: props\.lang\.default: prop `lang`: default is allowed only/m);
    const deployed = await cli(['deploy', '--json', warned], env);
    assert.equal(deployed.code, 0, deployed.stderr);
    assert.match(deployed.stderr, /^warning: props\.lang\.default:/m);
    assert.equal(JSON.parse(deployed.stdout).configured_props.lang, undefined, 'the default is not stored as a value');
    const source = await cliJson<{ id: string }>(['describe', JSON.parse(deployed.stdout).id], env);
    assert.ok(source.id);
  });
});
