// Sibling apps (issue 21): `@pipedream/<app>` comes from a local registry tree that holds the app
// (its package.json `name`), as in Pipedream's monorepo; npm only when no tree has it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { bundleFile } from '../../../runtime/components/bundle-file';
import { treeOf } from '../../../runtime/components/sibling-apps';
import { tempDir } from '../../helpers/service';

const TREE = path.resolve('test', 'fixtures', 'components', 'runtime');

describe('sibling apps', () => {
  it('finds the registry tree a file sits in', () => {
    assert.equal(treeOf(path.join(TREE, 'orderly', 'actions', 'sync-orders', 'sync-orders.mjs')), TREE);
    assert.equal(treeOf(path.resolve('package.json')), null);
  });

  it('bundles a sibling app (and a subpath of it) from the file’s own tree, not npm', async () => {
    const { code, inputs } = await bundleFile(path.join(TREE, 'orderly', 'actions', 'sync-orders', 'sync-orders.mjs'));
    assert.ok(!code.includes('@pipedream/pagely'), 'no import of the sibling is left for npm');
    assert.ok(inputs.includes(path.join(TREE, 'pagely', 'pagely.app.mjs')));
    assert.ok(inputs.includes(path.join(TREE, 'pagely', 'common', 'constants.mjs')));
  });

  it('finds a sibling in another tree given, and leaves one no tree has to npm', async () => {
    const dir = tempDir('spout-siblings-');
    try {
      fs.mkdirSync(path.join(dir, 'shop', 'actions', 'a'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'shop', 'package.json'), JSON.stringify({ name: '@pipedream/shop', version: '0.1.0', dependencies: { '@pipedream/absent': '^1.2.0' } }));
      const file = path.join(dir, 'shop', 'actions', 'a', 'a.mjs');
      fs.writeFileSync(file, 'import pagely from "@pipedream/pagely";\nimport absent from "@pipedream/absent";\nexport default { name: "A", version: "0.0.1", type: "action", props: { pagely }, async run() { return absent; } };\n');
      const { code, inputs } = await bundleFile(file, { trees: [TREE] });
      assert.ok(inputs.includes(path.join(TREE, 'pagely', 'pagely.app.mjs')));
      assert.match(code, /from "@pipedream\/absent@\^1\.2\.0"/, 'an app no tree holds stays an npm import, pinned by the package.json');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
