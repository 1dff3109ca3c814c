// Each source's and session's temp folder (`/tmp` to its code): made private inside its owner's
// own folder, emptied, removed, and swept when its owner is not a source (issue 21).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { dirsRoot } from '../../../runtime/props/dir/dir-folders';
import { emptyTempFolder, makeTempFolder, removeTempFolder, sweepTempFolders } from '../../../runtime/sandbox/temp-folder';
import { tempDir } from '../../helpers/service';

describe('temp folders', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = tempDir('spout-temp-folders-');
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it("makes a private folder inside its owner's own folder (DATA_DIR/dirs/<id>/.tmp)", () => {
    const temp = makeTempFolder(dataDir, 'dc_one');
    assert.equal(temp.path, path.join(dirsRoot(dataDir, 'dc_one'), '.tmp'));
    assert.equal(temp.dataDir, dataDir);
    assert.equal(fs.statSync(temp.path).mode & 0o777, 0o700);
    assert.deepEqual(makeTempFolder(dataDir, 'dc_one'), temp, 'making it again keeps it');
  });

  it('empties a folder but keeps it (its host is granted it), and removes it', async () => {
    const temp = makeTempFolder(dataDir, 'sc_one');
    fs.mkdirSync(path.join(temp.path, 'sub'));
    fs.writeFileSync(path.join(temp.path, 'sub', 'a.txt'), 'aaa');
    fs.writeFileSync(path.join(temp.path, 'b.txt'), 'bb');
    await emptyTempFolder(temp.path);
    assert.deepEqual(fs.readdirSync(temp.path), []);
    await removeTempFolder(temp);
    assert.ok(!fs.existsSync(temp.path));
    assert.ok(fs.existsSync(dirsRoot(dataDir, 'sc_one')), "the owner's own folder (its `dir` props') stays");
  });

  it('sweeps the temp folders of owners that are not sources, leaving their own folders', async () => {
    for (const id of ['dc_kept', 'sc_component']) makeTempFolder(dataDir, id);
    fs.writeFileSync(path.join(dirsRoot(dataDir, 'sc_component'), 'kept.txt'), 'a dir prop file');
    await sweepTempFolders(dataDir, new Set(['dc_kept']));
    assert.deepEqual(fs.readdirSync(dirsRoot(dataDir, 'dc_kept')), ['.tmp']);
    assert.deepEqual(fs.readdirSync(dirsRoot(dataDir, 'sc_component')), ['kept.txt']);
  });
});
