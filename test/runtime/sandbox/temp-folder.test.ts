// Each source's and session's temp folder (`/tmp` to its code): made private, emptied, bounded,
// removed, and swept when its owner is gone (issue 21).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { emptyTempFolder, enforceTempLimit, folderBytes, makeTempFolder, removeTempFolder, sweepTempFolders } from '../../../runtime/sandbox/temp-folder';
import { tempDir } from '../../helpers/service';

describe('temp folders', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = tempDir('spout-temp-folders-');
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('makes a private folder per owner under DATA_DIR/tmp', () => {
    const folder = makeTempFolder(dataDir, 'dc_one');
    assert.equal(folder, path.join(dataDir, 'tmp', 'dc_one'));
    assert.equal(fs.statSync(folder).mode & 0o777, 0o700);
    assert.equal(makeTempFolder(dataDir, 'dc_one'), folder, 'making it again keeps it');
  });

  it('empties a folder but keeps it (its host is granted it), and removes it with its owner', async () => {
    const folder = makeTempFolder(dataDir, 'sc_one');
    fs.mkdirSync(path.join(folder, 'sub'));
    fs.writeFileSync(path.join(folder, 'sub', 'a.txt'), 'aaa');
    fs.writeFileSync(path.join(folder, 'b.txt'), 'bb');
    assert.equal(await folderBytes(folder), 5);
    await emptyTempFolder(folder);
    assert.deepEqual(fs.readdirSync(folder), []);
    await removeTempFolder(dataDir, 'sc_one');
    assert.ok(!fs.existsSync(folder));
  });

  it('empties a folder over its limit, and says how big it was', async () => {
    const folder = makeTempFolder(dataDir, 'dc_big');
    fs.writeFileSync(path.join(folder, 'big.bin'), Buffer.alloc(2048));
    assert.equal(await enforceTempLimit(folder, 4096), null);
    assert.equal(fs.readdirSync(folder).length, 1);
    assert.equal(await enforceTempLimit(folder, 1024), 2048);
    assert.deepEqual(fs.readdirSync(folder), []);
  });

  it('sweeps the folders of owners that are gone', async () => {
    for (const id of ['dc_kept', 'dc_gone', 'sc_session']) makeTempFolder(dataDir, id);
    await sweepTempFolders(dataDir, new Set(['dc_kept']));
    assert.deepEqual(fs.readdirSync(path.join(dataDir, 'tmp')), ['dc_kept']);
  });
});
