// The module hooks of `spout test` processes, called as Node calls them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { initialize, load, resolve } from '../../../runtime/testing/test-loader-hooks';
import { tempFiles } from '../../helpers/service';

const newFile = tempFiles('spout-hooks-', 'a.test.ts');
const notFound = async (): Promise<never> => {
  throw Object.assign(new Error('not found'), { code: 'ERR_MODULE_NOT_FOUND' });
};
const context = (parentURL?: string) => ({ conditions: ['node', 'import'], importAttributes: {}, importAssertions: {}, parentURL });

describe('test loader hooks', () => {
  it('resolve "spout/testing" to the running Spout\'s, wherever the importer is', async () => {
    await initialize({ testingUrl: 'file:///opt/spout/dist/testing.js' });
    const resolved = await resolve('spout/testing', context('file:///home/me/hooks/new-order.test.mjs'), notFound);
    assert.equal(resolved.url, 'file:///opt/spout/dist/testing.js');
  });

  it('resolve a TypeScript file\'s "./x.js" or "./x" to x.ts when only that exists, and leave other misses alone', async () => {
    const file = newFile();
    fs.writeFileSync(path.join(path.dirname(file), 'helper.ts'), 'export const x = 1;\n');
    const parent = pathToFileURL(file).href;
    assert.equal((await resolve('./helper.js', context(parent), notFound)).url, pathToFileURL(path.join(path.dirname(file), 'helper.ts')).href);
    assert.equal((await resolve('./helper', context(parent), notFound)).url, pathToFileURL(path.join(path.dirname(file), 'helper.ts')).href);
    await assert.rejects(async () => resolve('./missing.js', context(parent), notFound), /not found/);
    await assert.rejects(async () => resolve('./helper.ts', context(parent), notFound), /not found/);
    await assert.rejects(async () => resolve('./helper.js', context(pathToFileURL(path.join(path.dirname(file), 'b.test.mjs')).href), notFound), /not found/);
  });

  it('load a .ts file as an ES module with its types stripped and an inline source map, and pass others on', async () => {
    const file = newFile();
    fs.writeFileSync(file, 'interface Order { id: number }\nexport const order: Order = { id: 1 };\n');
    const loaded = await load(pathToFileURL(file).href, { conditions: [], format: undefined, importAttributes: {}, importAssertions: {} }, async () => ({ format: 'module', source: 'passed on' }));
    assert.equal(loaded.format, 'module');
    assert.match(String(loaded.source), /export const order = \{ id: 1 \};/);
    assert.doesNotMatch(String(loaded.source), /interface|: Order/);
    assert.match(String(loaded.source), /sourceMappingURL=data:application\/json/);
    const other = await load('file:///x/a.test.mjs', { conditions: [], format: undefined, importAttributes: {}, importAssertions: {} }, async () => ({ format: 'module', source: 'passed on' }));
    assert.equal(other.source, 'passed on');
  });
});
