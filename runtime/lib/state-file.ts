// Whole-file state of the data dir (metadata.json, each source's this.db, dedupe caches,
// cassettes, sync links): written whole or not at all and synced to disk, twice (the file and
// `<file>.copy`, so that no acknowledged version lives in one file only), with the version before
// kept beside it as `<file>.prev` (a hard link: nothing is copied). A damaged file whose start is a
// whole document keeps that document; else it is set aside as `<file>.damaged` and its copy, or
// failing that its previous version, taken instead, saying so; a start never fails on one file's content.
import fs from 'node:fs';
import path from 'node:path';
import type { ProblemSink } from './file-problems';
import { PRIVATE_DIR, PRIVATE_FILE } from './private-files';

let seq = 0;

/** The previous version of a state file. */
function previousOf(file: string): string {
  return `${file}.prev`;
}

/** The second copy of a state file's current version, written with it. */
function copyOf(file: string): string {
  return `${file}.copy`;
}

/** Removes a state file with its copy and its previous version. */
export async function removeStateFile(file: string): Promise<void> {
  await Promise.all([file, copyOf(file), previousOf(file)].map((f) => fs.promises.rm(f, { force: true })));
}

/**
 * Writes a state file whole or not at all (a temp file, synced, renamed over it), private to the
 * user (0600, its folder 0700), keeping the version it replaces as `<file>.prev`, and its copy:
 * once this resolves, the version is in two files. Both are written and synced at the same time,
 * so a change waits for one flush to disk, not two in a row (a save's answer waits for it).
 */
export async function writeStateFile(file: string, text: string): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR });
  const copy = copyOf(file);
  const temps = [tempOf(file), tempOf(copy)];
  try {
    await Promise.all(temps.map((temp) => writeSynced(temp, text)));
    // Each rename puts a whole file in place: a crash between them leaves one version or the other in each.
    keepPrevious(file);
    await Promise.all([fs.promises.rename(temps[0] as string, file), fs.promises.rename(temps[1] as string, copy)]);
  } catch (err) {
    await Promise.all(temps.map((temp) => fs.promises.rm(temp, { force: true })));
    throw err;
  }
}

/** A temp file beside `file`, unique to this write. */
function tempOf(file: string): string {
  return `${file}.${process.pid}.${seq++}.tmp`;
}

/** Writes `text` to a new private file and syncs it to disk. */
export async function writeSynced(temp: string, text: string): Promise<void> {
  const handle = await fs.promises.open(temp, 'w', PRIVATE_FILE);
  try {
    await handle.writeFile(text);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** writeStateFile for the few writes that must finish before the caller goes on. */
export function writeStateFileSync(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR });
  replaceFileSync(file, text, true);
  replaceFileSync(copyOf(file), text, false);
}

function replaceFileSync(file: string, text: string, keepPrev: boolean): void {
  const temp = `${file}.${process.pid}.s${seq++}.tmp`;
  try {
    const fd = fs.openSync(temp, 'w', PRIVATE_FILE);
    try {
      fs.writeFileSync(fd, text);
      fs.fdatasyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    if (keepPrev) keepPrevious(file);
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
 * Reads a state file with `parse` (which throws on a file it cannot take). A damaged one that starts
 * with a whole document (garbage after it) keeps that document, the whole file set aside; else it
 * is set aside as `<file>.damaged` and its copy, or failing that its previous version, is put back
 * in its place and taken ('recovered'). Each is reported to `report`, saying what was restored.
 */
export function readStateFile<T>(file: string, parse: (text: string) => T, report?: ProblemSink): StateRead<T> {
  const first = attempt(file, parse);
  if ('value' in first && first.kept === undefined) return { status: 'ok', value: first.value };
  if ('missing' in first && first.missing) return { status: 'missing', value: null };
  const aside = setAside(file);
  if ('value' in first) {
    restore(file, first.kept as string);
    report?.({ file, message: `damaged (${first.problem}); kept the whole document it starts with and set the file aside as ${path.basename(aside)}: nothing is lost` });
    return { status: 'recovered', value: first.value };
  }
  const copy = copyOf(file);
  const fromCopy = attempt(copy, parse);
  if ('value' in fromCopy) {
    restore(file, fromCopy.kept ?? fs.readFileSync(copy, 'utf8'));
    report?.({ file, message: `damaged (${first.problem}); set aside as ${path.basename(aside)} and restored from its copy (${path.basename(copy)}, the same version): nothing is lost` });
    return { status: 'recovered', value: fromCopy.value };
  }
  // Files written before copies were kept have none.
  const noCopy = fromCopy.missing ? 'it has no copy' : `its copy is damaged too (${fromCopy.problem})`;
  const prev = previousOf(file);
  const second = attempt(prev, parse);
  if ('value' in second) {
    const when = fs.statSync(prev).mtime.toISOString();
    restore(file, second.kept ?? fs.readFileSync(prev, 'utf8'));
    report?.({ file, message: `damaged (${first.problem}) and ${noCopy}; set aside as ${path.basename(aside)} and replaced by the version before it (${path.basename(prev)}, of ${when}): changes made after that are lost` });
    return { status: 'recovered', value: second.value };
  }
  // A damaged earlier version is set aside too: the next write would replace it.
  const why = second.missing ? 'there is no earlier version' : `the earlier version is damaged too (${second.problem}; set aside as ${path.basename(setAside(prev))})`;
  report?.({ file, message: `damaged (${first.problem}); set aside as ${path.basename(aside)}, ${noCopy}, and ${why}` });
  return { status: 'lost', value: null, problem: `${first.problem}; ${why}`, aside };
}

/** What `readStateFile` would do with a damaged state file, without changing anything (`spout doctor`). */
export type StateInspection = { problem: null } | { problem: string; mend: 'keep-document' | 'copy' | 'previous' | 'none' };

/** What is wrong with a state file and what a read would restore, without changing anything (`spout doctor`). */
export function inspectStateFile(file: string, parse: (text: string) => unknown): StateInspection {
  const first = attempt(file, parse);
  if ('missing' in first && first.missing) return { problem: null };
  if ('value' in first) return first.kept === undefined ? { problem: null } : { problem: first.problem, mend: 'keep-document' };
  if ('value' in attempt(copyOf(file), parse)) return { problem: first.problem, mend: 'copy' };
  return { problem: first.problem, mend: 'value' in attempt(previousOf(file), parse) ? 'previous' : 'none' };
}

/** A file's value; a file with garbage after a whole document gives that document as `kept` (its text), with the `problem`. */
type Attempt<T> = { value: T; kept?: undefined } | { value: T; kept: string; problem: string } | { missing: boolean; problem: string };

function attempt<T>(file: string, parse: (text: string) => T): Attempt<T> {
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
    const problem = text.trim() === '' ? 'empty' : text.includes('\0') ? 'it holds NUL bytes' : (err as Error).message;
    const end = wholeDocumentEnd(text);
    if (end === -1) return { missing: false, problem };
    const kept = text.slice(0, end);
    try {
      return { value: parse(kept), kept, problem: `${Buffer.byteLength(text.slice(end))} bytes after the document that are not part of it` };
    } catch {
      return { missing: false, problem };
    }
  }
}

/**
 * Where the JSON object or array `text` starts with ends (the index after its closing bracket), or
 * -1 when it does not start with one that closes. Strings are skipped, so brackets in them do not count.
 */
function wholeDocumentEnd(text: string): number {
  const start = text.search(/\S/);
  if (start === -1 || (text[start] !== '{' && text[start] !== '[')) return -1;
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (--depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Puts `text` in place of a file set aside, and in its copy (temp files and renames, as every write). */
function restore(file: string, text: string): void {
  replaceFileSync(file, text, false);
  replaceFileSync(copyOf(file), text, false);
}

/** Moves a damaged file out of the way (never over an earlier damaged copy); returns where to. */
function setAside(file: string): string {
  let aside = `${file}.damaged`;
  for (let n = 2; fs.existsSync(aside); n++) aside = `${file}.damaged-${n}`;
  fs.renameSync(file, aside);
  return aside;
}
