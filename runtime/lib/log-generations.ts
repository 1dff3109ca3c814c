// A retained log lives in two files: `<name>.jsonl` takes appends, and `<name>.previous.jsonl`
// holds the generation before it. Once the newest file holds a whole retention it takes the
// previous one's name, the previous one (the oldest records) is deleted, and appends start a new
// file. So dropping old records never rewrites the kept ones: each record is written once, and no
// append ever waits for a compaction. A rewrite (deleting chosen records) writes
// `<name>.rewritten.jsonl` first, which stands for both generations until it is renamed into
// place; a start finishes one a crash cut short.
import fs from 'node:fs';
import fsp from 'node:fs/promises';

const EXT = '.jsonl';
const PREVIOUS = '.previous.jsonl';
const REWRITTEN = '.rewritten.jsonl';

/** The file of a log's previous generation. */
export function previousFile(file: string): string {
  return withExtension(file, PREVIOUS);
}

/** Where a rewrite's whole content lies while the two generations it replaces are removed. */
export function rewrittenFile(file: string): string {
  return withExtension(file, REWRITTEN);
}

/** `file` with `.jsonl` (if it has it) replaced by `ext`. */
function withExtension(file: string, ext: string): string {
  return (file.endsWith(EXT) ? file.slice(0, -EXT.length) : file) + ext;
}

/** The owner a file of a folder of retained logs belongs to (`<owner>.jsonl` and its other generations), or null for another file. */
export function ownerOfLogFile(name: string): string | null {
  for (const suffix of [PREVIOUS, REWRITTEN, EXT]) if (name.endsWith(suffix)) return name.slice(0, -suffix.length) || null;
  return null;
}

/** Where the oldest generation goes when a new one starts, to be deleted off the event loop (freeing a large file's blocks takes a while). */
export function droppedFile(file: string): string {
  return `${file}.dropped.tmp`;
}

/**
 * Makes a log's file its previous generation; the generation before goes. That one is renamed
 * aside and deleted in the thread pool: renamed over, a large file's blocks would be freed inside
 * the rename, on the event loop. The caller opens a new file.
 */
export function makePrevious(file: string): void {
  const dropped = droppedFile(file);
  try {
    fs.renameSync(previousFile(file), dropped);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err; // the first generation has none before it
  }
  fs.renameSync(file, previousFile(file));
  fsp.rm(dropped, { force: true }).catch((err: Error) => console.error(`deleting ${dropped} failed: ${err.message}`));
}

/** Finishes what a crash interrupted: a dropped generation is deleted, and a rewrite's content, complete once it has its name, replaces both generations. */
export function finishInterrupted(file: string): void {
  fs.rmSync(droppedFile(file), { force: true });
  const rewritten = rewrittenFile(file);
  if (!fs.existsSync(rewritten)) return;
  fs.rmSync(previousFile(file), { force: true });
  fs.renameSync(rewritten, file);
}

/** Deletes every file of a log. */
export async function removeLogFiles(file: string): Promise<void> {
  await Promise.all([file, previousFile(file), rewrittenFile(file), droppedFile(file)].map((f) => fsp.rm(f, { force: true })));
}

/** Makes a folder's entries (a rename, a new file) durable. */
export async function syncFolder(dir: string): Promise<void> {
  const handle = await fsp.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
