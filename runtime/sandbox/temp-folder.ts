// Each source's and each configuration session's private temp folder: what its code sees as
// `/tmp` and `os.tmpdir()` (child/tmp-shim.ts maps the name). It is `.tmp` in the owner's own
// folder, DATA_DIR/dirs/<source or component id> (props/dir/dir-folders.ts), so it is granted
// with that folder and nothing else, counted in its `--component-disk` limit (host-limits.ts,
// which empties it when the folder goes over) and removed with the source. An action's is emptied
// after each run and removed when its session ends. docs/security.md, "The temp folder".
import fs from 'node:fs/promises';
import path from 'node:path';
import { makePrivateDir } from '../lib/private-files';
import { dirsRoot } from '../props/dir/dir-folders';

/** The name of the temp folder inside an owner's own folder. */
const TEMP_NAME = '.tmp';

/** A host's temp folder, and the data dir it lies in (whose paths keep their real meaning in the host). */
export interface TempFolder {
  path: string;
  dataDir: string;
}

/** An owner's temp folder, created (0700) if missing: a host is granted it, which works only for a folder that exists when the host starts. */
export function makeTempFolder(dataDir: string, ownerId: string): TempFolder {
  const folder = path.join(dirsRoot(dataDir, ownerId), TEMP_NAME);
  makePrivateDir(folder);
  return { path: folder, dataDir };
}

/** What a host's load is told of its temp folder (host-protocol.ts): where it is, moved with its owner's folder when a spare host took that (`lent`). */
export function loadTemp(temp: TempFolder, lent: { from: string; to: string } | null): { dir: string; real: string[]; moved?: { from: string; to: string } } {
  if (!lent) return { dir: temp.path, real: [temp.dataDir] };
  return { dir: lent.to + temp.path.slice(lent.from.length), real: [temp.dataDir], moved: lent };
}

/** Removes everything in a temp folder, keeping the folder (its host is granted it). */
export async function emptyTempFolder(folder: string): Promise<void> {
  const entries = await fs.readdir(folder).catch(() => [] as string[]);
  await Promise.all(entries.map((entry) => fs.rm(path.join(folder, entry), { recursive: true, force: true })));
}

/** Removes a temp folder (its session ended). */
export async function removeTempFolder(temp: TempFolder): Promise<void> {
  await fs.rm(temp.path, { recursive: true, force: true });
}

/** Removes the temp folders of owners that are not sources: configuration sessions of a service that stopped. */
export async function sweepTempFolders(dataDir: string, sources: ReadonlySet<string>): Promise<void> {
  const owners = await fs.readdir(path.join(dataDir, 'dirs')).catch(() => [] as string[]);
  await Promise.all(owners.filter((id) => !sources.has(id)).map((id) => fs.rm(path.join(dirsRoot(dataDir, id), TEMP_NAME), { recursive: true, force: true })));
}
