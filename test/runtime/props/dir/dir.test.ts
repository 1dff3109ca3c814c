// `dir` props: the source's own folder unless the user configures an absolute one; `this.<prop>`
// is that folder, as the service granted it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { ConfigurableProp } from '../../../../runtime/contract/component-shape';
import { bindDir } from '../../../../runtime/props/dir/dir-binding';
import { assertValid, bindingHost, configure, withProp } from '../../../helpers/component-checks';

describe('dir props: definition', () => {
  it('takes a default on a required prop, as registry code writes it', () => {
    assertValid(withProp({ type: 'dir', accessMode: 'read-write', default: '/tmp/x' }));
  });
});

describe('dir props: configured value and binding', () => {
  const dir: ConfigurableProp = { name: 'files', type: 'dir' };

  it('keeps an absolute folder, normalised, as a path or {path}', () => {
    assert.deepEqual(configure(dir, '/data/./in/'), { values: { files: path.normalize('/data/./in/') }, problems: [] });
    assert.deepEqual(configure(dir, { path: '/data/in' }).values, { files: '/data/in' });
    assert.deepEqual(configure(dir), { values: {}, problems: [] });
  });

  it('rejects a relative folder', () => {
    assert.deepEqual(
      configure(dir, 'in').problems.map((p) => p.message),
      ['prop `files` takes an absolute folder path (or leave it out for the source\'s own folder), not "in"'],
    );
  });

  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'spout-dir-'));
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('binds the granted folder, read-only when the service says so', async () => {
    const writable = bindDir('files', dir, bindingHost({ dirs: { files: { path: root, write: true } } })) as { path: string; open(p: string): { fromFile(f: string): Promise<unknown> } };
    assert.equal(writable.path, root);
    const source = path.join(root, 'source.txt');
    fs.writeFileSync(source, 'hi');
    await writable.open('copy.txt').fromFile(source);
    assert.equal(fs.readFileSync(path.join(root, 'copy.txt'), 'utf8'), 'hi');
    const readOnly = bindDir('files', dir, bindingHost({ dirs: { files: { path: root, write: false } } })) as typeof writable;
    await assert.rejects(readOnly.open('other.txt').fromFile(source), /needs a writable dir/);
    assert.equal(bindDir('files', dir, bindingHost()), undefined);
  });
});
