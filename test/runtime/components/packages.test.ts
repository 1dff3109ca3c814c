// The package cache: bare imports in component code installed with npm from a local fake registry.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bundleComponent } from '../../../runtime/components/bundle';
import { PackageError, parseSpecifier } from '../../../runtime/components/package-specifier';
import { PackageCache, type PackageCacheOptions } from '../../../runtime/components/packages';
import { ComponentError } from '../../../runtime/lib/error-kinds';
import { componentRequire } from '../../../runtime/sandbox/child/component-require';
import { type FakeRegistry, startNpmRegistry, writePackage } from '../../helpers/npm-registry';

/** Runs a CommonJS bundle as the sandbox does, allowing only builtins: packages must be bundled in. */
/** Evaluates a bundle as the sandbox does: packages are required at run time through component-require. */
function runBundle(code: string): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  const require = componentRequire(import.meta.url);
  new Function('module', 'exports', 'require', code)(module, module.exports, require);
  return (module.exports.default ?? module.exports) as Record<string, unknown>;
}

const PAD_VERSIONS = ['1.0.0', '1.2.0', '1.3.1', '2.0.0'];

describe('package cache', () => {
  let packageDirs: string[];
  let registry: FakeRegistry;
  const temps: string[] = [];
  const temp = (prefix: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    temps.push(dir);
    return dir;
  };
  /** A cache in a fresh dir using `registry` (default: the shared one). */
  const cache = (options: Partial<PackageCacheOptions> = {}) => new PackageCache({ dir: temp('spout-packages-'), registry: registry.url, fetchRetries: 0, ...options });

  before(async () => {
    const root = temp('spout-registry-src-');
    packageDirs = PAD_VERSIONS.map((v) =>
      writePackage(
        root,
        { name: 'spout-test-pad', version: v, main: 'index.js' },
        {
          'index.js': `module.exports = function pad(s, n) { return String(s).padStart(n, '*'); };\nmodule.exports.version = ${JSON.stringify(v)};\n`,
          'lib/version.js': `module.exports = ${JSON.stringify(v)};\n`,
        },
      ),
    );
    packageDirs.push(
      writePackage(
        root,
        { name: '@spout-test/greet', version: '1.0.0', main: 'index.js', dependencies: { 'spout-test-pad': '~1.2.0' } },
        {
          // Its own dependency resolves from its install folder, not through the cache.
          'index.js': `const pad = require('spout-test-pad');\nexports.hello = (n) => 'hello ' + pad(n, 6) + ' with pad ' + pad.version;\n`,
          'lib/shout.js': `module.exports = (s) => String(s).toUpperCase() + '!';\n`,
        },
      ),
    );
    packageDirs.push(
      // An app package as Pipedream publishes them: an ES module whose default export is the app.
      writePackage(
        root,
        { name: '@spout-test/app', version: '1.0.0', type: 'module', main: 'app.mjs' },
        {
          'app.mjs': `import { fileURLToPath } from 'node:url';\nimport { createRequire } from 'node:module';\nconst version = createRequire(import.meta.url)('./package.json').version;\nexport const here = fileURLToPath(import.meta.url);\nexport default { type: 'app', app: 'spout_test', propDefinitions: { folder: { type: 'string', label: 'Folder' } }, methods: { version() { return version; } } };\n`,
        },
      ),
      // A CommonJS package that reads a file beside its code, as some SDKs do.
      writePackage(
        root,
        { name: 'spout-test-data', version: '1.0.0', main: 'index.js' },
        {
          'index.js': `const fs = require('fs');\nconst path = require('path');\nmodule.exports = { words: fs.readFileSync(path.join(__dirname, 'words.txt'), 'utf8').trim().split(' '), dir: __dirname };\n`,
          'words.txt': 'alpha beta',
        },
      ),
    );
    // A package whose newest versions need a dependency that was never published (issue 45): one
    // names a package the registry lacks (E404), one a version it lacks (ETARGET).
    const broken: Array<[string, Record<string, string>]> = [
      ['1.0.0', {}],
      ['1.1.0', { 'spout-test-pad': '^1.0.0' }],
      ['1.2.0', { 'spout-test-unpublished': '^1.0.0' }],
      ['1.3.0', { 'spout-test-pad': '9.0.0' }],
      ['1.2.5-beta.1', {}],
    ];
    for (const [version, dependencies] of broken) {
      packageDirs.push(writePackage(root, { name: 'spout-test-broken', version, main: 'index.js', dependencies }, { 'index.js': `module.exports = ${JSON.stringify(version)};\n` }));
    }
    packageDirs.push(writePackage(root, { name: 'spout-test-hopeless', version: '1.0.0', main: 'index.js', dependencies: { 'spout-test-unpublished': '^1.0.0' } }, { 'index.js': '' }));
    registry = await startNpmRegistry(packageDirs);
  });
  after(async () => {
    await registry.stop();
    for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('parses bare imports, pinned or not, scoped or not, with subpaths', () => {
    const cases: [string, string, string | null, string][] = [
      ['left-pad', 'left-pad', null, ''],
      ['left-pad/lib/x.js', 'left-pad', null, '/lib/x.js'],
      ['@scope/name', '@scope/name', null, ''],
      ['@scope/name/sub', '@scope/name', null, '/sub'],
      ['left-pad@1.2.3', 'left-pad', '1.2.3', ''],
      ['left-pad@~1.2', 'left-pad', '~1.2', ''],
      ['left-pad@^1', 'left-pad', '^1', ''],
      ['left-pad@^1/sub', 'left-pad', '^1', '/sub'],
      ['@scope/name@^2/sub/path', '@scope/name', '^2', '/sub/path'],
    ];
    for (const [raw, name, range, subpath] of cases) assert.deepEqual(parseSpecifier(raw), { raw, name, range, subpath }, raw);
    for (const bad of ['left-pad@', 'left-pad@not a range!', '@scope', '@/x', 'x//y', '_private']) {
      assert.throws(
        () => parseSpecifier(bad),
        (err: unknown) => err instanceof PackageError && err.kind === 'invalid-specifier' && err.message.includes(`"${bad}"`),
        bad,
      );
    }
  });

  it('picks the version an exact, ~ or ^ pin asks for, and latest when unpinned', async () => {
    const packages = cache();
    assert.equal((await packages.resolve('spout-test-pad@^1')).version, '1.3.1');
    assert.equal((await packages.resolve('spout-test-pad@1.0.0')).version, '1.0.0');
    assert.equal((await packages.resolve('spout-test-pad@~1.2')).version, '1.2.0');
    // A cached version satisfying the pin is used: the newest of them.
    assert.equal((await packages.resolve('spout-test-pad@^1.0.0')).version, '1.3.1');
    assert.deepEqual((await packages.cachedVersions('spout-test-pad')).sort(), ['1.0.0', '1.2.0', '1.3.1']);
    // Unpinned takes the newest cached version rather than going to the registry.
    const unpinned = await packages.resolve('spout-test-pad');
    assert.equal(unpinned.version, '1.3.1');
    assert.equal(unpinned.root, path.join(packages.dir, 'spout-test-pad@1.3.1'));
    assert.ok(fs.existsSync(path.join(unpinned.root, 'node_modules', 'spout-test-pad', 'index.js')));
    // npm ran with Spout's own cache, not ~/.npm.
    assert.ok(fs.existsSync(path.join(packages.dir, '.npm')));

    const fresh = cache();
    assert.equal((await fresh.resolve('spout-test-pad')).version, '2.0.0', 'nothing cached: latest');
  });

  it('uses a cached satisfying version without asking the registry', async () => {
    const packages = cache();
    await packages.resolve('spout-test-pad@1.2.0');
    const before = registry.requests.length;
    assert.equal((await packages.resolve('spout-test-pad@~1.2')).version, '1.2.0');
    assert.equal((await packages.resolve('spout-test-pad@^1.1')).version, '1.2.0');
    assert.equal(registry.requests.length, before);
  });

  it('bundles subpath and scoped imports, and two pins of one package side by side', async () => {
    const packages = cache();
    const source = `
      import { readFileSync } from "node:fs";
      import os from "os";
      import oldPad from "spout-test-pad@1.0.0";
      import newPad from "spout-test-pad@^2";
      import oldVersion from "spout-test-pad@1.0.0/lib/version.js";
      import { hello } from "@spout-test/greet@^1";
      import shout from "@spout-test/greet/lib/shout.js";
      export default { versions: [oldPad.version, newPad.version, oldVersion], padded: newPad("7", 3), greeting: shout(hello("ann")),
        builtins: typeof readFileSync === "function" && typeof os.tmpdir === "function" };`;
    const bundle = await bundleComponent(source, 'component.mjs', { packages });
    assert.deepEqual(runBundle(bundle.code), {
      versions: ['1.0.0', '2.0.0', '1.0.0'],
      padded: '**7',
      greeting: 'HELLO ***ANN WITH PAD 1.2.0!',
      builtins: true,
    });
    assert.deepEqual((await packages.cachedVersions('spout-test-pad')).sort(), ['1.0.0', '2.0.0'], "greet's own dependency is not a cache entry");
    assert.deepEqual(await packages.cachedVersions('@spout-test/greet'), ['1.0.0']);
    assert.ok(fs.existsSync(path.join(packages.dir, '@spout-test+greet@1.0.0', 'node_modules', '@spout-test', 'greet')));
  });

  it("gives an ES module package's default export to an import, and packages keep __dirname, import.meta.url and createRequire", async () => {
    const packages = cache();
    const source = `
      import app from "@spout-test/app";
      import { here } from "@spout-test/app";
      import data from "spout-test-data";
      import * as ns from "spout-test-data";
      const { words } = require("spout-test-data");
      const spread = { ...app.propDefinitions };
      export default { app: app.app, spread: Object.keys(spread), version: app.methods.version(), here: here.endsWith("app.mjs"), words: data.words, named: ns.words, required: words, real: data.dir.startsWith(${JSON.stringify(fs.realpathSync(os.tmpdir()))}) || data.dir.startsWith(${JSON.stringify(os.tmpdir())}) };`;
    const bundle = await bundleComponent(source, 'component.mjs', { packages });
    assert.doesNotMatch(bundle.code, /alpha beta/, 'packages are not bundled in');
    assert.deepEqual(runBundle(bundle.code), { app: 'spout_test', spread: ['folder'], version: '1.0.0', here: true, words: ['alpha', 'beta'], named: ['alpha', 'beta'], required: ['alpha', 'beta'], real: true });
  });

  it("gives @pipedream/platform from Spout's own install, whatever version is pinned, installing nothing", async () => {
    const stopped = await startNpmRegistry(packageDirs);
    await stopped.stop();
    const packages = cache({ registry: stopped.url });
    const source = `
      import { axios, ConfigurationError } from "@pipedream/platform";
      import { axios as pinned, sqlProp, jsonStringifySafe } from "@pipedream/platform@^1.0.0";
      import { defineAction } from "@pipedream/types";
      import fs from "node:fs";
      export default { ok: typeof axios === "function" && pinned === axios && typeof ConfigurationError === "function" && typeof fs.statSync === "function" && typeof sqlProp === "object" && typeof jsonStringifySafe === "function" && defineAction({ a: 1 }).a === 1 };`;
    const bundle = await bundleComponent(source, 'component.mjs', { packages });
    assert.deepEqual(runBundle(bundle.code), { ok: true });
    assert.ok(!fs.existsSync(packages.dir) || fs.readdirSync(packages.dir).length === 0);
  });

  it('works offline once a version is cached; a package never installed fails naming it', async () => {
    const own = await startNpmRegistry(packageDirs);
    const packages = cache({ registry: own.url });
    const source = `import pad from "spout-test-pad@^1.2"; export default { v: pad.version };`;
    assert.deepEqual(runBundle((await bundleComponent(source, 'c.mjs', { packages })).code), { v: '1.3.1' });
    await own.stop();

    assert.equal((await packages.resolve('spout-test-pad@^1.2')).version, '1.3.1');
    assert.equal((await packages.resolve('spout-test-pad@~1.3.0/lib/version.js')).subpath, '/lib/version.js');
    assert.deepEqual(runBundle((await bundleComponent(source, 'c.mjs', { packages })).code), { v: '1.3.1' });
    const cjs = `const version = require("spout-test-pad/lib/version.js");\nmodule.exports = { v: version };`;
    assert.deepEqual(runBundle((await bundleComponent(cjs, 'c.js', { packages })).code), { v: '1.3.1' }, 'unpinned: the cached version');

    await assert.rejects(packages.resolve('@spout-test/greet@^1'), (err: unknown) => {
      assert.ok(err instanceof PackageError);
      assert.equal(err.kind, 'unreachable');
      assert.match(err.message, /^package "@spout-test\/greet@\^1" is not in Spout's package cache and could not be installed \(registry http:\/\/127\.0\.0\.1:\d+\/ unreachable: ECONNREFUSED\); connect to the network once/);
      return true;
    });
    // Not cached in a satisfying version: 1.3.1 does not do for ^2.
    await assert.rejects(packages.resolve('spout-test-pad@^2'), { name: 'PackageError', message: /"spout-test-pad@\^2" is not in Spout's package cache/ });
    // Through the bundler it is a ComponentError pointing at the import.
    await assert.rejects(bundleComponent(`import g from "@spout-test/greet";\nexport default { g };`, 'offline.mjs', { packages }), (err: unknown) => {
      assert.ok(err instanceof ComponentError);
      assert.equal(err.problems.length, 1);
      assert.equal(err.problems[0]?.path, 'offline.mjs:1:15');
      assert.match(err.message, /package "@spout-test\/greet" is not in Spout's package cache/);
      return true;
    });
  });

  it('tells a package that does not exist from a version that does not exist', async () => {
    const packages = cache();
    await assert.rejects(packages.resolve('spout-test-nope@^1'), (err: unknown) => {
      assert.ok(err instanceof PackageError);
      assert.equal(err.kind, 'not-found');
      assert.equal(err.message, `package "spout-test-nope" (import "spout-test-nope@^1") does not exist in registry ${registry.url}; check the package name`);
      return true;
    });
    await assert.rejects(packages.resolve('@spout-test/nope'), { name: 'PackageError', message: /^package "@spout-test\/nope" .*does not exist in registry/ });
    await assert.rejects(packages.resolve('spout-test-pad@^9.1'), (err: unknown) => {
      assert.ok(err instanceof PackageError);
      assert.equal(err.kind, 'no-matching-version');
      assert.equal(err.message, `package "spout-test-pad" has no version matching "^9.1" in registry ${registry.url} (import "spout-test-pad@^9.1"); pin a published version (in the import, or in the dependencies of the package.json beside the component, which unpinned imports follow)`);
      return true;
    });
    assert.deepEqual(
      fs.readdirSync(packages.dir).filter((e) => !e.startsWith('.npm')),
      [],
      'failed installs leave nothing behind',
    );
  });

  it('falls back to the newest version in range whose dependencies resolve, and says which (issue 45)', async () => {
    const lines: string[] = [];
    const packages = cache({ onProgress: (line) => lines.push(line) });
    const found = await packages.resolve('spout-test-broken@^1.0.0');
    assert.equal(found.version, '1.1.0');
    assert.ok(lines.includes('spout-test-broken@1.3.0 cannot be installed (a dependency of it cannot be resolved); trying older versions in "^1.0.0"'), lines.join('\n'));
    assert.ok(lines.includes('chose spout-test-broken@1.1.0 for "spout-test-broken@^1.0.0": the newest version in "^1.0.0" whose dependencies resolve (1.3.0, 1.2.0 cannot be installed)'), lines.join('\n'));
    assert.deepEqual(
      fs.readdirSync(packages.dir).filter((e) => !e.startsWith('.')),
      ['spout-test-broken@1.1.0'],
    );
    // Cached: the next import of the range installs nothing.
    lines.length = 0;
    assert.equal((await packages.resolve('spout-test-broken@^1')).version, '1.1.0');
    assert.deepEqual(lines, []);
    // Unpinned: within latest's major.
    assert.equal((await cache().resolve('spout-test-broken')).version, '1.1.0');
  });

  it('names the dependency problem when no version in range installs', async () => {
    await assert.rejects(cache().resolve('spout-test-hopeless@^1'), (err: unknown) => {
      assert.ok(err instanceof PackageError);
      assert.equal(err.kind, 'broken-dependency');
      assert.match(err.message, /^package "spout-test-hopeless@\^1" could not be installed from registry .*: a dependency of it cannot be resolved \(.*spout-test-unpublished/);
      return true;
    });
  });

  it('reports progress, and concurrent requests for one spec install once', async () => {
    const all: string[] = [];
    const packages = cache({ onProgress: (line) => all.push(line) });
    const first: string[] = [];
    const second: string[] = [];
    const results = await Promise.all([packages.resolve('spout-test-pad@^1.2', { onProgress: (line) => first.push(line) }), packages.resolve('spout-test-pad@^1.2/lib/version.js', { onProgress: (line) => second.push(line) }), packages.resolve('spout-test-pad@^1.2')]);
    assert.deepEqual(
      results.map((r) => [r.version, r.root, r.subpath]),
      [
        ['1.3.1', path.join(packages.dir, 'spout-test-pad@1.3.1'), ''],
        ['1.3.1', path.join(packages.dir, 'spout-test-pad@1.3.1'), '/lib/version.js'],
        ['1.3.1', path.join(packages.dir, 'spout-test-pad@1.3.1'), ''],
      ],
    );
    assert.equal(all.filter((l) => l.startsWith('installing ')).length, 1, all.join('\n'));
    assert.equal(all[0], 'installing spout-test-pad@^1.2 …');
    assert.match(all.at(-1) ?? '', /^installed spout-test-pad@1\.3\.1 in \d+(\.\d)? s$/);
    assert.deepEqual(first, all);
    assert.deepEqual(second, all);
    // Cached now: no more lines.
    await packages.resolve('spout-test-pad@^1.2');
    assert.equal(all.length, first.length);

    // An unpinned install says it takes the latest.
    const lines: string[] = [];
    await cache().resolve('@spout-test/greet', { onProgress: (l) => lines.push(l) });
    assert.equal(lines[0], 'installing @spout-test/greet (latest) …');
  });

  it('does not take a half-finished install for a cached one', async () => {
    const packages = cache();
    // What an install killed midway leaves: its temp folder, and (damage) a version folder without the package.
    fs.mkdirSync(path.join(packages.dir, '.install-abc123', 'node_modules', 'spout-test-pad'), { recursive: true });
    fs.writeFileSync(path.join(packages.dir, '.install-abc123', 'node_modules', 'spout-test-pad', 'package.json'), '{"name":"spout-test-pad","version":"1.3.1"}');
    fs.mkdirSync(path.join(packages.dir, 'spout-test-pad@1.3.1', 'node_modules'), { recursive: true });
    assert.deepEqual(await packages.cachedVersions('spout-test-pad'), []);
    const resolved = await packages.resolve('spout-test-pad@^1');
    assert.equal(resolved.version, '1.3.1');
    assert.ok(fs.existsSync(path.join(resolved.root, 'node_modules', 'spout-test-pad', 'index.js')));
    assert.deepEqual(await packages.cachedVersions('spout-test-pad'), ['1.3.1']);
  });
});
