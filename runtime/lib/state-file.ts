// Whole-file state of the data dir (metadata.json, each source's this.db, dedupe caches,
// cassettes, sync links): written whole or not at all and synced to disk, with the version before
// kept beside it as `<file>.prev` (a hard link: nothing is copied). A file found damaged is set
// aside as `<file>.damaged` and its previous version taken instead, saying so; a start never fails
// on one file's content.
import fs from 'node:fs';
import path from 'node:path';
import type { ProblemSink } from './file-problems';
import { PRIVATE_DIR, PRIVATE_FILE } from './private-files';

let seq = 0;

/** The previous version of a state file. */
export function previousOf(file: string): string {
  return `${file}.prev`;
}

/**
 * Writes a state file whole or not at all (a temp file, synced, renamed over it), private to the
 * user (0600, its folder 0700), keeping the version it replaces as `<file>.prev`.
 */
export async function writeStateFile(file: string, text: string): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR });
  const temp = `${file}.${process.pid}.${seq++}.tmp`;
  try {
    const handle = await fs.promises.open(temp, 'w', PRIVATE_FILE);
    try {
      await handle.writeFile(text);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    keepPrevious(file);
    await fs.promises.rename(temp, file);
  } catch (err) {
    await fs.promises.rm(temp, { force: true });
    throw err;
  }
}

/** writeStateFile for the few writes that must finish before the caller goes on. */
export function writeStateFileSync(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR });
  const temp = `${file}.${process.pid}.s${seq++}.tmp`;
  try {
    const fd = fs.openSync(temp, 'w', PRIVATE_FILE);
    try {
      fs.writeFileSync(fd, text);
      fs.fdatasyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    keepPrevious(file);
    fs.renameSync(temp, file);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw err;
  }
}

/** Links the current version as `<file>.prev` (copies it where links are not possible). */
function keepPrevious(file: string): void {
  const prev = previousOf(file);
  fs.rmSync(prev, { force: true });
  try {
    fs.linkSync(file, prev);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return; // the first version: nothing before it
    fs.copyFileSync(file, prev);
  }
}

/** How reading a state file went. */
export type StateRead<T> =
  | { status: 'ok' | 'recovered'; value: T }
  /** No such file (a first start). */
  | { status: 'missing'; value: null }
  /** Damaged, with no good previous version: set aside; `problem` says why. */
  | { status: 'lost'; value: null; problem: string; aside: string };

/**
 * Reads a state file with `parse` (which throws on a file it cannot take). A damaged one is set
 * aside as `<file>.damaged` and the previous version is put back in its place and taken ('recovered');
 * both are reported to `report`.
 */
export function readStateFile<T>(file: string, parse: (text: string) => T, report?: ProblemSink): StateRead<T> {
  const first = attempt(file, parse);
  if ('value' in first) return { status: 'ok', value: first.value };
  if (first.missing) return { status: 'missing', value: null };
  const aside = setAside(file);
  const prev = previousOf(file);
  const second = attempt(prev, parse);
  if ('value' in second) {
    const when = fs.statSync(prev).mtime.toISOString();
    fs.copyFileSync(prev, file);
    report?.({ file, message: `damaged (${first.problem}); set aside as ${path.basename(aside)} and replaced by the version before it (${path.basename(prev)}, of ${when}): changes made after that are lost` });
    return { status: 'recovered', value: second.value };
  }
  // A damaged earlier version is set aside too: the next write would replace it.
  const why = second.missing ? 'there is no earlier version' : `the earlier version is damaged too (${second.problem}; set aside as ${path.basename(setAside(prev))})`;
  report?.({ file, message: `damaged (${first.problem}); set aside as ${path.basename(aside)}, and ${why}` });
  return { status: 'lost', value: null, problem: `${first.problem}; ${why}`, aside };
}

/** What is wrong with a state file and with its previous version, without changing either (`spout doctor`). */
export function inspectStateFile(file: string, parse: (text: string) => unknown): { problem: string | null; previous: 'good' | 'damaged' | 'missing' } {
  const first = attempt(file, parse);
  const second = attempt(previousOf(file), parse);
  return { problem: 'value' in first || first.missing ? null : first.problem, previous: 'value' in second ? 'good' : second.missing ? 'missing' : 'damaged' };
}

function attempt<T>(file: string, parse: (text: string) => T): { value: T } | { missing: boolean; problem: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') return { missing: true, problem: 'missing' };
    return { missing: false, problem: e.message };
  }
  try {
    return { value: parse(text) };
  } catch (err) {
    const message = text.trim() === '' ? 'empty' : text.includes('\0') ? 'it holds NUL bytes' : (err as Error).message;
    return { missing: false, problem: message };
  }
}

/** Moves a damaged file out of the way (never over an earlier damaged copy); returns where to. */
function setAside(file: string): string {
  let aside = `${file}.damaged`;
  for (let n = 2; fs.existsSync(aside); n++) aside = `${file}.damaged-${n}`;
  fs.renameSync(file, aside);
  return aside;
}
