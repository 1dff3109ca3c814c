// The neutral folder of a spare host (docs/runtime.md, "The spare host"). Node fixes a host's
// grants when it starts, so the spare is started granted a folder of its own,
// `DATA_DIR/spares/<id>`, empty; when a source wakes on it, the source's own folder
// (`DATA_DIR/dirs/<source>`, its temp folder inside) is renamed to `<that folder>/own` (same file
// system: one atomic step), and renamed back when the host ends. A record outside every host's
// grants (`DATA_DIR/spare-owners/<id>.json`) is written before the move and removed after the move
// back, so that a start after a kill -9 at any point puts every folder back (`recoverSpareFolders`).
import fs from 'node:fs';
import path from 'node:path';
import { newId } from '../lib/ids';
import { makePrivateDir, writePrivateFileSync } from '../lib/private-files';

/** A spare host's neutral folder: what it is granted, where a source's folder goes, and its record. */
export interface SpareFolder {
  /** Granted to the spare host (read and write). */
  folder: string;
  /** Where a source's own folder is while the host has it. */
  own: string;
  /** The temp folder the host's `os.tmpdir()` is, once a source's folder is in `own`. */
  temp: string;
  /** Says whose folder is in `own`; no host is granted it. */
  record: string;
}

/** What a record holds: the folder moved, and its inode, so that only that folder goes back. */
interface SpareRecord {
  from: string;
  dev: number;
  ino: number;
}

/** Makes a new, empty neutral folder (0700) for a spare host to be started on. */
export function makeSpareFolder(dataDir: string): SpareFolder {
  const id = newId('sp', 12);
  const folder = path.join(dataDir, 'spares', id);
  makePrivateDir(folder);
  const own = path.join(folder, 'own');
  return { folder, own, temp: path.join(own, '.tmp'), record: path.join(dataDir, 'spare-owners', `${id}.json`) };
}

/** Moves a source's own folder into the spare's place: the record first, then one rename. */
export function moveIn(spare: SpareFolder, from: string): void {
  const stat = fs.statSync(from);
  const record: SpareRecord = { from, dev: stat.dev, ino: stat.ino };
  writePrivateFileSync(spare.record, JSON.stringify(record));
  try {
    fs.renameSync(from, spare.own);
  } catch (err) {
    fs.rmSync(spare.record, { force: true });
    throw err;
  }
}

/**
 * Puts back the folder a spare holds (if any), then removes its record and the neutral folder.
 * Safe to repeat. What went back is the folder that was moved in, by inode: a host that put
 * something else in its place (a link to another source's folder) gets nothing moved for it.
 */
export function moveBack(spare: SpareFolder): void {
  const record = readRecord(spare.record);
  if (record) {
    try {
      putBack(spare.own, record);
    } catch (err) {
      console.error(`spout: could not put ${record.from} back from ${spare.own}: ${(err as Error).message}; it is left there`);
      return;
    }
  }
  fs.rmSync(spare.record, { force: true });
  removeFolder(spare.folder);
}

/** Removes a neutral folder in the background: an rmdir took 3 ms on the build machine, too long for the service's thread (a start sweeps any left). */
function removeFolder(folder: string): void {
  void fs.promises.rmdir(folder).catch(() => fs.promises.rm(folder, { recursive: true, force: true }).catch(() => undefined));
}

/** Puts back every folder a spare held when an earlier run of the service ended, and removes the spares' folders; returns the folders put back. */
export function recoverSpareFolders(dataDir: string): string[] {
  const restored: string[] = [];
  const recordsDir = path.join(dataDir, 'spare-owners');
  const sparesDir = path.join(dataDir, 'spares');
  for (const name of readdir(recordsDir)) {
    if (!name.endsWith('.json')) continue;
    const id = name.slice(0, -'.json'.length);
    const folder = path.join(sparesDir, id);
    const spare: SpareFolder = { folder, own: path.join(folder, 'own'), temp: '', record: path.join(recordsDir, name) };
    const from = readRecord(spare.record)?.from;
    if (from && fs.existsSync(spare.own)) restored.push(from);
    moveBack(spare);
  }
  // Neutral folders of spares no source woke on.
  for (const id of readdir(sparesDir)) if (!fs.existsSync(path.join(recordsDir, `${id}.json`))) fs.rmSync(path.join(sparesDir, id), { recursive: true, force: true });
  return restored;
}

/** Moves `own` back to `record.from`; where a folder was made there meanwhile (a host started for an update), what it lacks is moved in. */
function putBack(own: string, record: SpareRecord): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(own);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // not moved yet, or already back
    throw err;
  }
  if (!stat.isDirectory() || stat.dev !== record.dev || stat.ino !== record.ino) {
    throw new Error('the host replaced the folder it was given');
  }
  if (!fs.existsSync(record.from)) return fs.renameSync(own, record.from);
  merge(own, record.from);
}

/** Moves into `to` what it does not have of `from`; where both have a file, `to`'s (the newer host's) is kept. */
function merge(from: string, to: string): void {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    const there = lstatOrNull(target);
    if (!there) fs.renameSync(source, target);
    else if (entry.isDirectory() && there.isDirectory()) merge(source, target);
  }
}

function readRecord(file: string): SpareRecord | null {
  try {
    const value = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<SpareRecord>;
    return typeof value.from === 'string' && typeof value.dev === 'number' && typeof value.ino === 'number' ? (value as SpareRecord) : null;
  } catch {
    return null;
  }
}

function readdir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch {
    return null;
  }
}
