// A spare host's neutral folder (runtime/sandbox/spare-folders.ts): a source's own folder moved in
// and back; a start after a kill -9 at each point of the move puts it back; a folder made again
// meanwhile (an update's host) gets what it lacks; something a host put in the folder's place is
// never moved out as the source's folder.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { makeSpareFolder, moveBack, moveIn, recoverSpareFolders } from '../../../runtime/sandbox/spare-folders';
import { tempDir, waitFor } from '../../helpers/service';

const roots: string[] = [];
after(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

/** A data dir with one source's own folder holding a file in its temp folder. */
function dataDirWithSource(): { dataDir: string; own: string } {
  const dataDir = tempDir('spout-spare-folders-');
  roots.push(dataDir);
  const own = path.join(dataDir, 'dirs', 'dc_a');
  fs.mkdirSync(path.join(own, '.tmp'), { recursive: true });
  fs.writeFileSync(path.join(own, '.tmp', 'kept.txt'), 'kept');
  return { dataDir, own };
}

const spareEntries = (dataDir: string) => (fs.existsSync(path.join(dataDir, 'spares')) ? fs.readdirSync(path.join(dataDir, 'spares')) : []);

describe('spare folders', () => {
  it('moves a source folder into the spare and back, leaving no spare folder or record', async () => {
    const { dataDir, own } = dataDirWithSource();
    const spare = makeSpareFolder(dataDir);
    moveIn(spare, own);
    assert.equal(fs.existsSync(own), false);
    assert.equal(fs.readFileSync(path.join(spare.temp, 'kept.txt'), 'utf8'), 'kept');
    moveBack(spare);
    moveBack(spare);
    assert.equal(fs.readFileSync(path.join(own, '.tmp', 'kept.txt'), 'utf8'), 'kept');
    assert.deepEqual(fs.readdirSync(path.join(dataDir, 'spare-owners')), []);
    // The neutral folder is removed in the background.
    await waitFor(() => spareEntries(dataDir).length === 0, 10_000, 'the neutral folder to be removed');
  });

  it('puts back, on start, a folder a spare held when the service was killed', () => {
    const { dataDir, own } = dataDirWithSource();
    moveIn(makeSpareFolder(dataDir), own);
    // Killed before the move: a record, nothing moved yet.
    const second = path.join(dataDir, 'dirs', 'dc_b');
    fs.mkdirSync(second);
    const unmoved = makeSpareFolder(dataDir);
    fs.writeFileSync(unmoved.record, JSON.stringify({ from: second, dev: 0, ino: 0 }));
    // A spare no source woke on.
    makeSpareFolder(dataDir);
    assert.deepEqual(recoverSpareFolders(dataDir), [own]);
    assert.equal(fs.readFileSync(path.join(own, '.tmp', 'kept.txt'), 'utf8'), 'kept');
    assert.ok(fs.existsSync(second));
    assert.deepEqual(spareEntries(dataDir), []);
    assert.deepEqual(fs.readdirSync(path.join(dataDir, 'spare-owners')), []);
  });

  it('moves into a folder made again meanwhile what it lacks, keeping the files it has', () => {
    const { dataDir, own } = dataDirWithSource();
    const spare = makeSpareFolder(dataDir);
    moveIn(spare, own);
    fs.writeFileSync(path.join(spare.own, 'old-only.txt'), 'old');
    fs.writeFileSync(path.join(spare.temp, 'both.txt'), 'old');
    // A host started for an update made the folder again and wrote in it.
    fs.mkdirSync(path.join(own, '.tmp'), { recursive: true });
    fs.writeFileSync(path.join(own, '.tmp', 'both.txt'), 'new');
    moveBack(spare);
    assert.equal(fs.readFileSync(path.join(own, 'old-only.txt'), 'utf8'), 'old');
    assert.equal(fs.readFileSync(path.join(own, '.tmp', 'kept.txt'), 'utf8'), 'kept');
    assert.equal(fs.readFileSync(path.join(own, '.tmp', 'both.txt'), 'utf8'), 'new');
  });

  it('never moves what a host put in its folder place (a link to another source) as the source folder', () => {
    const { dataDir, own } = dataDirWithSource();
    const other = path.join(dataDir, 'dirs', 'dc_other');
    fs.mkdirSync(other);
    const spare = makeSpareFolder(dataDir);
    moveIn(spare, own);
    fs.renameSync(spare.own, path.join(spare.folder, 'elsewhere'));
    fs.symlinkSync(other, spare.own);
    moveBack(spare);
    assert.equal(fs.existsSync(own), false, 'no link to another source took its place');
    assert.ok(fs.existsSync(spare.record), 'the record stays, the folders left as they were');
  });
});
