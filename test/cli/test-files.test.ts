// Which test files `spout test` finds, and which a changed file reruns under --watch.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { findTestFiles, testsAffectedBy } from '../../runtime/testing/test-files';
import { tempDir } from '../helpers/service';

describe('spout test files', () => {
  const dir = tempDir('spout-test-files-');
  const files: Record<string, string> = {
    'new-order.mjs': 'export default {};\n',
    'new-order.test.mjs': "import src from './new-order.mjs';\n",
    'new-order.cassette.json': '{}',
    'send.ts': 'export {};\n',
    'send.test.ts': "import './send.js';\n",
    'shared/fixtures.mjs': 'export {};\n',
    'shared/uses-fixtures.test.js': "import '../shared/fixtures.mjs';\n",
    'shared/other.test.mjs': '\n',
    'node_modules/pkg/skipped.test.mjs': '',
    '.git/skipped.test.mjs': '',
    'notes.test.md': '',
  };
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const at = (...names: string[]) => names.map((n) => path.join(dir, n));

  it('finds *.test.{mjs,js,ts} under folders (not node_modules or dot-folders), and takes a file as given', () => {
    const found = findTestFiles([dir]);
    assert.deepEqual(found.files, at('new-order.test.mjs', 'send.test.ts', 'shared/other.test.mjs', 'shared/uses-fixtures.test.js'));
    assert.deepEqual(found.folders, [dir, path.join(dir, 'shared')]);
    assert.deepEqual(findTestFiles([path.join(dir, 'notes.test.md')]).files, at('notes.test.md'));
  });

  it("reruns a component's tests, a changed test itself, and tests that name a changed file", () => {
    const tests = findTestFiles([dir]).files;
    assert.deepEqual(testsAffectedBy(at('new-order.mjs'), tests), at('new-order.test.mjs'));
    assert.deepEqual(testsAffectedBy(at('new-order.cassette.json'), tests), at('new-order.test.mjs'));
    assert.deepEqual(testsAffectedBy(at('send.ts'), tests), at('send.test.ts'));
    assert.deepEqual(testsAffectedBy(at('shared/other.test.mjs'), tests), at('shared/other.test.mjs'));
    assert.deepEqual(testsAffectedBy(at('shared/fixtures.mjs'), tests), at('shared/uses-fixtures.test.js'));
    assert.deepEqual(testsAffectedBy(at('unrelated.json'), tests), []);
  });
});
