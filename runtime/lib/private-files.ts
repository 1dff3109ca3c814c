// The data dir holds keys, secrets and everything components saw: what the service writes there
// is its user's alone (files 0600, folders 0700), whatever the modes of a data dir that already
// existed, and whatever an older version left behind. Whole-file writes go through
// state-file.ts, which makes them private as well.
import fs from 'node:fs';
import path from 'node:path';

/** Mode of every file the service writes in the data dir. */
export const PRIVATE_FILE = 0o600;
/** Mode of every folder the service makes in the data dir. */
export const PRIVATE_DIR = 0o700;

/** Narrows an existing path's mode to `mode` if others may use it; a failure is a warning, not a stop. */
function tighten(target: string, mode: number): void {
  try {
    if ((fs.statSync(target).mode & 0o077) !== 0) fs.chmodSync(target, mode);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code !== 'ENOENT') console.warn(`could not make ${target} private (${e.code ?? e.message}); run: chmod ${mode.toString(8)} ${target}`);
  }
}

/** Makes a folder of the service's own (and missing parents) with mode 0700; an existing one is narrowed to it. */
export function makePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  tighten(dir, PRIVATE_DIR);
}

/** Narrows an existing file of the service's own to mode 0600 (one written by an older version, say). */
export function keepPrivate(file: string): void {
  tighten(file, PRIVATE_FILE);
}

let seq = 0;

/** Writes a file whole (a temp file renamed over it), private, before the caller goes on: for files that need no earlier version kept (state-file.ts keeps one). */
export function writePrivateFileSync(file: string, data: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR });
  const temp = `${file}.${process.pid}.s${seq++}.tmp`;
  try {
    fs.writeFileSync(temp, data, { mode: PRIVATE_FILE });
    fs.renameSync(temp, file);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw err;
  }
}
