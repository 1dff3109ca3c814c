// Each source's (and each configuration session's) private temp folder: what its code sees as
// `/tmp` (child/tmp-shim.ts maps the name). It lives in `DATA_DIR/tmp/<owner id>`, mode 0700, is
// granted to that owner's hosts only, and is removed with the source (a session's is emptied after
// each action run and removed when the session ends). Its size is bounded: after each invocation
// a folder over the limit is emptied, with a warning in the owner's log. docs/security.md.
import fs from 'node:fs/promises';
import path from 'node:path';
import { makePrivateDir } from '../lib/private-files';

/** Most a temp folder may hold between invocations: Pipedream's `/tmp` is 2 GB. */
export const TEMP_LIMIT_BYTES = 2 * 1024 * 1024 * 1024;

/** The folder holding every owner's temp folder. */
function tempRoot(dataDir: string): string {
  return path.join(dataDir, 'tmp');
}

/** An owner's temp folder, created (0700) if missing: a host is granted it, which works only for a folder that exists when the host starts. */
export function makeTempFolder(dataDir: string, ownerId: string): string {
  const folder = path.join(tempRoot(dataDir), ownerId);
  makePrivateDir(folder);
  return folder;
}

/** The data dir a temp folder lies in: its paths keep their real meaning in the host even where the data dir is under the machine's /tmp (tests'), so what is not granted there is refused, not read as the host's own /tmp. */
export function dataDirOf(folder: string): string {
  return path.dirname(path.dirname(path.resolve(folder)));
}

/** Removes everything in a temp folder, keeping the folder (its host is granted it). */
export async function emptyTempFolder(folder: string): Promise<void> {
  const entries = await fs.readdir(folder).catch(() => [] as string[]);
  await Promise.all(entries.map((entry) => fs.rm(path.join(folder, entry), { recursive: true, force: true })));
}

/** Removes an owner's temp folder (its source was deleted, or its session ended). */
export async function removeTempFolder(dataDir: string, ownerId: string): Promise<void> {
  await fs.rm(path.join(tempRoot(dataDir), ownerId), { recursive: true, force: true });
}

/** Removes the temp folders of owners that no longer exist (sessions of a service that stopped, sources deleted meanwhile). */
export async function sweepTempFolders(dataDir: string, keep: ReadonlySet<string>): Promise<void> {
  const entries = await fs.readdir(tempRoot(dataDir)).catch(() => [] as string[]);
  await Promise.all(entries.filter((id) => !keep.has(id)).map((id) => removeTempFolder(dataDir, id)));
}

/** Bytes the files under `folder` take (symbolic links not followed). */
export async function folderBytes(folder: string): Promise<number> {
  let total = 0;
  const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) total += await folderBytes(full);
    else total += (await fs.lstat(full).catch(() => null))?.size ?? 0;
  }
  return total;
}

/** Empties a temp folder that holds more than `limit` bytes; answers the size it had when it did, else null. */
export async function enforceTempLimit(folder: string, limit = TEMP_LIMIT_BYTES): Promise<number | null> {
  const bytes = await folderBytes(folder);
  if (bytes <= limit) return null;
  await emptyTempFolder(folder);
  return bytes;
}
