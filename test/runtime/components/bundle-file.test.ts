// The CLI's bundler: relative imports inlined, the module format kept, bare imports left for the
// service and pinned to the ranges of the nearest package.json (a registry app's); `spout dev`'s
// rebuilds give what a fresh build gives.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bundleFile, FileBundler } from '../../../runtime/components/bundle-file';

describe('bundleFile', () => {
  let root: string;
  const write = (rel: string, text: string) => {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    return file;
  };

  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'spout-bundle-file-'));
    write('app/package.json', JSON.stringify({ name: '@x/app', dependencies: { got: '^13.0.0', lodash: '4.17.21', local: 'workspace:*', '@pipedream/platform': '^1.6.0' } }));
    write('app/app.app.mjs', 'export default { type: "app", app: "app" };\n');
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('keeps an ES module an ES module, pinning unpinned imports to package.json ranges', async () => {
    const file = write(
      'app/actions/a/a.mjs',
      `import got from "got";
import get from "lodash/get.js";
import pinned from "got@12.0.0";
import local from "local";
import other from "left-pad";
import { axios } from "@pipedream/platform";
import fs from "node:fs";
import app from "../../app.app.mjs";
export default { app, got, get, pinned, local, other, axios, fs };
`,
    );
    const { code, inputs, manifests } = await bundleFile(file);
    for (const imported of ['got@^13.0.0', 'lodash@4.17.21/get.js', 'got@12.0.0', 'local', 'left-pad', '@pipedream/platform', 'node:fs']) {
      assert.match(code, new RegExp(`^import (\\w+|\\{ \\w+ \\}) from "${imported.replace(/[.^$*+?()[\]{}|/]/g, '\\$&')}";$`, 'm'), `${imported} in:\n${code}`);
    }
    assert.doesNotMatch(code, /require\(/);
    assert.deepEqual(inputs.sort(), [path.join(root, 'app', 'actions', 'a', 'a.mjs'), path.join(root, 'app', 'app.app.mjs')].sort());
    // The package.json files looked for on the way up to the app's: a change to any can change the pins.
    assert.deepEqual(manifests.sort(), ['app/actions/a', 'app/actions', 'app'].map((d) => path.join(root, d, 'package.json')).sort());
  });

  it('keeps a CommonJS file CommonJS, its requires plain require calls', async () => {
    const file = write('app/actions/b/b.js', 'const got = require("got");\nconst app = require("../../app.app.mjs");\nmodule.exports = { name: "B", version: "0.0.1", type: "action", got, app, async run() {} };\n');
    const { code } = await bundleFile(file);
    assert.match(code, /require\("got@\^13\.0\.0"\)/);
    assert.doesNotMatch(code, /^import /m);
  });

  it('rebuilds a file on each save as bundleFile builds it: an edited import, a new package.json range, a file turned CommonJS', async () => {
    const file = write('app/sources/c/c.mjs', 'import got from "got";\nimport { word } from "./word.mjs";\nexport default { got, word };\n');
    write('app/sources/c/word.mjs', 'export const word = "first";\n');
    const bundler = new FileBundler(file);
    try {
      const first = await bundler.bundle();
      assert.equal(first.code, (await bundleFile(file)).code);
      assert.match(first.code, /"first"/);
      write('app/sources/c/word.mjs', 'export const word = "second";\n');
      write('app/sources/c/package.json', JSON.stringify({ dependencies: { got: '^14.0.0' } }));
      const second = await bundler.bundle();
      assert.match(second.code, /"second"/);
      assert.match(second.code, /from "got@\^14\.0\.0"/);
      assert.equal(second.code, (await bundleFile(file)).code);
      write('app/sources/c/c.mjs', 'const got = require("got");\nmodule.exports = { got };\n');
      const third = await bundler.bundle();
      assert.match(third.code, /require\("got@\^14\.0\.0"\)/);
      assert.doesNotMatch(third.code, /^import /m);
      write('app/sources/c/c.mjs', 'export default { = };\n');
      await assert.rejects(bundler.bundle(), (err: Error & { problems?: Array<{ path: string }> }) => err.problems?.[0]?.path.includes('c.mjs:1:') === true);
    } finally {
      await bundler.dispose();
    }
  });
});
