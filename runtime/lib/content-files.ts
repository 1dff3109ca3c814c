// Content-addressed files: each text is kept once, in a file named by its sha256 and a kind
// (`<sha256>.<ext>`), written whole (a temp file, synced, renamed, the folder synced) and never
// changed after. A record names the file; saving the same text again writes nothing. Files nothing
// names any more are removed by a sweep the owner runs when no write is under way.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PRIVATE_DIR } from './private-files';
import { writeSynced } from './state-file';

/** A content file's name: 64 hex digits and a kind. */
const NAME = /^[0-9a-f]{64}\.[a-z]+$/;
/** Content file names wherever they occur in a text (a record, a whole document). */
const NAMES = /[0-9a-f]{64}\.[a-z]+/g;

let seq = 0;
/** Content files written at the same time, at most (each holds a file open). */
const PUT_AT_ONCE = 16;

/** The sha256 of a text, in hex. */
export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Whether `name` has the shape of a content file's name (no folders, no dots beyond the kind). */
export function isContentName(name: unknown): boolean {
  return typeof name === 'string' && NAME.test(name);
}

/** Every content file name a text mentions (a metadata file, say, however damaged). */
export function contentNamesIn(text: string): string[] {
  return text.match(NAMES) ?? [];
}

/** A folder of content-addressed files. */
export class ContentFiles {
  constructor(readonly dir: string) {}

  /** The path of a content file. */
  pathOf(name: string): string {
    return path.join(this.dir, name);
  }

  /** The name `text` is kept under as `ext`. */
  nameOf(text: string, ext: string): string {
    return `${sha256(text)}.${ext}`;
  }

  /**
   * Keeps texts, each under its name (`nameOf`), and resolves once each is on disk, synced, and its
   * name in the folder synced too: a record written after this never names a file a crash could
   * lose. A file already there with the right content is left as it is.
   */
  async put(texts: ReadonlyArray<{ name: string; text: string }>): Promise<void> {
    if (texts.length === 0) return;
    await fs.promises.mkdir(this.dir, { recursive: true, mode: PRIVATE_DIR });
    let written = false;
    // A few at a time: an older data dir moves thousands of texts at its first start.
    for (let i = 0; i < texts.length; i += PUT_AT_ONCE) {
      const done = await Promise.all(texts.slice(i, i + PUT_AT_ONCE).map(({ name, text }) => this.writeOnce(name, text)));
      written ||= done.some(Boolean);
    }
    if (written) await syncDir(this.dir);
  }

  /** Reads a content file; throws (ENOENT) when it is missing. */
  read(name: string): string {
    return fs.readFileSync(this.pathOf(name), 'utf8');
  }

  /** What is wrong with a content file: 'missing', 'damaged' (its content is not the text its name says), or null. */
  check(name: string): 'missing' | 'damaged' | null {
    let text: string;
    try {
      text = this.read(name);
    } catch {
      return 'missing';
    }
    return `${sha256(text)}.${path.extname(name).slice(1)}` === name ? null : 'damaged';
  }

  /** Whether a content file is there (not checking its content). */
  has(name: string): boolean {
    return fs.existsSync(this.pathOf(name));
  }

  /**
   * Removes content files (and temp files of interrupted writes) not in `keep`. Only when no put is
   * under way: a put's files are named by no record until it has finished.
   */
  sweep(keep: ReadonlySet<string>): string[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return [];
    }
    const removed = names.filter((name) => (isContentName(name) && !keep.has(name)) || name.endsWith('.tmp'));
    for (const name of removed) fs.rmSync(this.pathOf(name), { force: true });
    return removed;
  }

  /** Writes a content file unless it is there whole; true when it wrote one. */
  private async writeOnce(name: string, text: string): Promise<boolean> {
    // A file of that name with other content (damaged on disk) is written again.
    if (this.check(name) === null) return false;
    const file = this.pathOf(name);
    const temp = `${file}.${process.pid}.${seq++}.tmp`;
    try {
      await writeSynced(temp, text);
      await fs.promises.rename(temp, file);
    } catch (err) {
      await fs.promises.rm(temp, { force: true });
      throw err;
    }
    return true;
  }
}

/** Syncs a folder, so that names renamed into it survive a crash. */
async function syncDir(dir: string): Promise<void> {
  const handle = await fs.promises.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
