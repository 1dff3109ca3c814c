// A component kept as its original files (issue 43, point 5): which files a registry component
// is made of, and bundling them again — sibling apps inside the set or from a registry folder,
// never a file outside the set.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { bundleFile } from '../../../runtime/components/bundle-file';
import { bundleFileSet, isFileSetPath, registryFiles } from '../../../runtime/components/file-set';
import { ComponentError } from '../../../runtime/lib/error-kinds';

const TREE = path.resolve('test', 'fixtures', 'components', 'runtime');
const ENTRY = path.join(TREE, 'orderly', 'actions', 'sync-orders', 'sync-orders.mjs');

describe('file sets', () => {
  it('lists the entry, the files its bundle took in from the registry folder, and their apps’ package.json', async () => {
    const { inputs } = await bundleFile(ENTRY);
    const set = registryFiles(TREE, ENTRY, inputs);
    assert.equal(set.entry_file, 'orderly/actions/sync-orders/sync-orders.mjs');
    assert.deepEqual(
      set.files.map((f) => f.path),
      ['orderly/actions/sync-orders/sync-orders.mjs', 'orderly/orderly.app.mjs', 'orderly/package.json', 'pagely/common/constants.mjs', 'pagely/package.json', 'pagely/pagely.app.mjs'],
    );
  });

  it('bundles a set with its sibling app inside it, or from a registry folder when the set leaves it out', async () => {
    const { inputs, code } = await bundleFile(ENTRY);
    const set = registryFiles(TREE, ENTRY, inputs);
    assert.equal((await bundleFileSet(set, [])).code.includes('PAGE_SIZE'), code.includes('PAGE_SIZE'));
    const own = { ...set, files: set.files.filter((f) => f.path.startsWith('orderly/')) };
    assert.match((await bundleFileSet(own, [TREE])).code, /pagely/);
  });

  it('refuses paths outside the set and imports that leave it', async () => {
    for (const bad of ['../x.mjs', '/x.mjs', 'a/../b.mjs', 'a//b.mjs', '.hidden/x.mjs', 'a\\b.mjs', '']) assert.equal(isFileSetPath(bad), false, bad);
    assert.equal(isFileSetPath('slack/sources/new-message/new-message.mjs'), true);
    const escaping = { entry_file: 'x/x.mjs', files: [{ path: 'x/x.mjs', code: 'import a from "../../../../../etc/hostname.js";\nexport default a;' }] };
    await assert.rejects(bundleFileSet(escaping, []), (err: unknown) => err instanceof ComponentError && /outside the component's files/.test(err.message) && /^x\/x\.mjs:1:/.test(err.problems[0]?.path ?? ''));
    await assert.rejects(bundleFileSet({ entry_file: 'y.mjs', files: [{ path: 'x.mjs', code: '' }] }, []), /not one of the files given/);
  });
});
