import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { type ProblemSink, printProblem } from './file-problems';
import { scanJsonLinesYielding } from './jsonl-scan';
import type { RawLines } from './line-arena';
import { LineStaging } from './line-staging';
import { finishInterrupted, makePrevious, previousFile, rewrittenFile, syncFolder } from './log-generations';
import { keepPrivate, PRIVATE_FILE } from './private-files';

/** How a log is opened: where its records go, and how its lines are checked. */
export interface OpenOptions<T> {
  /** Receives each record already in the file, oldest first, with the size of its line in bytes and the line (its bytes, valid only during the call); absent, `open` returns them. */
  onRecord?: (record: T, bytes: number, raw: Buffer) => void;
  /** What is wrong with a parsed line, or null when it is a record of this log (damaged ones are set aside). */
  check?: (value: unknown) => string | null;
  /** Longest line taken, in bytes (default 64 MB). */
  maxLineBytes?: number;
  /** Receives what was found damaged; default: printed to stderr. */
  report?: ProblemSink;
  /**
   * Unsynced lines wait up to this many milliseconds to be written with those that follow (default
   * 0: at the next turn of the event loop). Fewer, larger writes, for a log appended to thousands
   * of times a second; a process crash loses what is still waiting.
   */
  unsyncedWithinMs?: number;
  /**
   * The log keeps a previous generation (lib/log-generations.ts): `open` reads it before the
   * file, and once the file holds this many lines or bytes, the next append makes it the previous
   * generation and starts a new one (`rotate` does so at once).
   */
  generations?: GenerationLimits;
}

/** When a log's newest file is full (see OpenOptions.generations). */
export interface GenerationLimits {
  lines: number;
  bytes: number;
}

/** Receives each line's UTF-8 bytes as they are queued (without the newline; valid only during the call): a caller that keeps the line too copies them instead of encoding it again. */
export type OnStaged = (bytes: Buffer) => void;

interface Pending {
  /** Its lines' bytes (in `staged`). */
  bytes: number;
  count: number;
  /** False for lines whose loss in a power cut is harmless: they are written but not synced. */
  sync: boolean;
  resolve: () => void;
  reject: (err: Error) => void;
}

/** Chunks written in one call when a compaction writes raw lines (under the system's IOV_MAX). */
const CHUNKS_A_WRITE = 512;

/** At most this many fdatasync calls overlap; each covers every write made before it. */
const MAX_SYNCS = 2;

/**
 * An append-only file of JSON lines with group commit: appends made in the same tick are written
 * together and made durable with one fdatasync, and each append resolves only once its lines are
 * on disk. Writes are synchronous (small appends to the page cache) so lines keep their order;
 * the syncs run off the event loop and overlap, so a batch never waits for a whole earlier sync.
 * A torn last line (a crash mid-write) is reported and set aside when the file is read back.
 */
export class AppendLog<T> {
  private fd: number;
  private queue: Pending[] = [];
  /** The queued lines' bytes, in order. */
  private staged = new LineStaging();
  private readonly syncs = new Set<Promise<void>>();
  /** Set while compaction swaps the file: appends wait. */
  private rewriting: Promise<void> | null = null;
  private scheduled = false;
  /** Set while unsynced lines wait to be written (`unsyncedWithinMs`). */
  private waiting: NodeJS.Timeout | null = null;
  private compacting = false;
  private lines: number;
  private bytes: number;
  /** Set from a rotation until the folder holds the new file durably and the old one is closed: syncs wait for it. */
  private rotation: Promise<void> | null = null;

  private constructor(
    readonly file: string,
    fd: number,
    lines: number,
    bytes: number,
    private readonly unsyncedWithinMs: number,
    /** The previous generation's file and when the newest is full (read at each append: the owner may change it), if the log keeps generations. */
    private readonly generations: { limits: GenerationLimits; previous: string } | null,
  ) {
    this.fd = fd;
    this.lines = lines;
    this.bytes = bytes;
  }

  /**
   * Opens (creating if needed) the log with the records already in it, oldest first: handed to
   * `options.onRecord` if given (a caller keeping only some of them), else returned. The file is
   * read line by line (lib/jsonl-scan.ts): a damaged line is reported, set aside in
   * `<file>.damaged` and left out of the file, so no content can fail the open. With
   * `generations`, the previous generation's records come first.
   */
  static async open<T>(file: string, options: OpenOptions<T> = {}): Promise<{ log: AppendLog<T>; records: T[] }> {
    const records: T[] = [];
    const onRecord = options.onRecord ?? ((record: T) => void records.push(record));
    // Yielding: a big file read at start (or on a store's first use) holds up requests by a chunk at most.
    const scan = (f: string) =>
      scanJsonLinesYielding(f, {
        check: options.check,
        onRecord: (value, _line, bytes, raw) => onRecord(value as T, bytes, raw),
        maxLineBytes: options.maxLineBytes,
        repair: true,
        report: options.report ?? printProblem,
      });
    const generations = options.generations ? { limits: options.generations, previous: previousFile(file) } : null;
    if (generations) {
      finishInterrupted(file);
      await scan(generations.previous);
    }
    const scanned = await scan(file);
    const fd = fs.openSync(file, 'a', PRIVATE_FILE);
    keepPrivate(file);
    return { log: new AppendLog<T>(file, fd, scanned.records, fs.fstatSync(fd).size, options.unsyncedWithinMs ?? 0, generations), records };
  }

  /** Number of lines in the file (written or queued). */
  get lineCount(): number {
    return this.lines;
  }

  /** Size of the file in bytes (written or queued). */
  get byteCount(): number {
    return this.bytes;
  }

  /**
   * Makes the file the previous generation (replacing the one before, and the oldest records with
   * it) and goes on in a new, empty file; lines still queued are written first, so they stay with
   * the previous generation. Nothing is copied, and appends never wait. Does nothing
   * while a rewrite is under way, or for a log without `generations`.
   */
  rotate(): void {
    if (!this.generations || this.rewriting) return;
    // What is queued belongs to this generation: it is written before the file changes name.
    this.flush(true);
    try {
      makePrevious(this.file);
    } catch (err) {
      return console.error(`starting a new generation of ${this.file} failed: ${(err as Error).message}`);
    }
    const old = this.fd;
    this.fd = fs.openSync(this.file, 'a', PRIVATE_FILE);
    this.lines = 0;
    this.bytes = 0;
    // Syncs under way finish on the old file, which is closed after them; the new file's first
    // sync waits for the folder to hold it durably too.
    const folder = syncFolder(path.dirname(this.file)).catch((err: Error) => console.error(`syncing the folder of ${this.file} failed: ${err.message}`));
    const rotation: Promise<void> = Promise.all([...this.syncs, folder]).then(() => {
      fs.closeSync(old);
      if (this.rotation === rotation) this.rotation = null;
    });
    this.rotation = rotation;
  }

  /** Appends one record; resolves once it is durable. */
  append(record: T): Promise<void> {
    return this.appendLines([JSON.stringify(record)]);
  }

  /** Appends lines already serialised as JSON (each one `T`, without newlines); resolves once durable. `onStaged` sees each line's bytes at once. */
  appendLines(lines: string[], onStaged?: OnStaged): Promise<void> {
    return new Promise<void>((resolve, reject) => this.enqueue(lines, true, resolve, reject, onStaged));
  }

  /**
   * Appends lines in order without waiting for a disk sync (a later synced append, or the OS,
   * flushes them); once written (at the next turn, or within `unsyncedWithinMs`), a process crash
   * keeps them. For records whose loss in a power cut is harmless. A write error is logged.
   * `onStaged` sees each line's bytes at once.
   */
  appendUnsynced(lines: string[], onStaged?: OnStaged): void {
    this.enqueue(lines, false, noop, this.reportUnsynced, onStaged);
  }

  private readonly reportUnsynced = (err: Error) => console.error(`writing ${this.file} failed: ${err.message}`);

  private enqueue(lines: string[], sync: boolean, resolve: () => void, reject: (err: Error) => void, onStaged?: OnStaged): void {
    if (lines.length === 0) return resolve();
    // Checked before a batch, never within it: one run's lines are never split across files.
    if (this.generations && (this.lines >= this.generations.limits.lines || this.bytes >= this.generations.limits.bytes)) this.rotate();
    let bytes = 0;
    for (const line of lines) {
      const size = this.staged.add(line);
      onStaged?.(this.staged.last(size));
      bytes += size;
    }
    this.lines += lines.length;
    this.bytes += bytes;
    const last = this.queue[this.queue.length - 1];
    // Unsynced appends in a row share one entry (all of them resolve with noop and report with
    // reportUnsynced): the delivery thread makes one for every attempt.
    if (!sync && last?.sync === false) {
      last.bytes += bytes;
      last.count += lines.length;
    } else this.queue.push({ bytes, count: lines.length, sync, resolve, reject });
    if (sync || this.unsyncedWithinMs === 0) this.schedule();
    else
      this.waiting ??= setTimeout(() => {
        this.waiting = null;
        this.flush();
      }, this.unsyncedWithinMs);
  }

  /**
   * Compaction: replaces the whole file, atomically, with what `snapshot` returns (lines, or
   * raw lines already in bytes, which are written as they are without passing through a string).
   * The snapshot must reflect every append made so far (callers update their state before
   * appending). Appends queued but not yet written are covered by the snapshot and resolve with
   * the new file; appends made during the swap wait and land after it. It never waits for the
   * queue to empty, so it finishes under a steady stream of appends. With `generations`, the
   * content replaces both generations (see lib/log-generations.ts for how a crash is survived).
   */
  async rewrite(snapshot: () => string[] | RawLines): Promise<void> {
    while (this.rewriting) await this.rewriting;
    let release = () => {};
    this.rewriting = new Promise<void>((resolve) => (release = resolve));
    let carried: Pending[] = [];
    let carriedBytes = Buffer.alloc(0);
    try {
      await Promise.all(this.syncs);
      carried = this.queue;
      carriedBytes = Buffer.from(this.staged.view());
      this.queue = [];
      this.staged.clear();
      const taken = snapshot();
      const raw = Array.isArray(taken) ? { chunks: [Buffer.from(taken.map((l) => `${l}\n`).join(''))], count: taken.length } : taken;
      const tmp = `${this.file}.tmp`;
      // A temp file left by a crash would keep its old mode: start from none.
      await fsp.rm(tmp, { force: true });
      const handle = await fsp.open(tmp, 'wx', PRIVATE_FILE);
      let size = 0;
      try {
        for (let i = 0; i < raw.chunks.length; i += CHUNKS_A_WRITE) {
          const batch = raw.chunks.slice(i, i + CHUNKS_A_WRITE);
          for (const chunk of batch) size += chunk.length;
          await writeChunks(handle, batch);
        }
        await handle.datasync();
      } finally {
        await handle.close();
      }
      if (this.generations) {
        const rewritten = rewrittenFile(this.file);
        await fsp.rename(tmp, rewritten);
        await fsp.rm(this.generations.previous, { force: true });
        await fsp.rename(rewritten, this.file);
      } else await fsp.rename(tmp, this.file);
      fs.closeSync(this.fd);
      this.fd = fs.openSync(this.file, 'a', PRIVATE_FILE);
      this.lines = raw.count + this.queue.reduce((n, p) => n + p.count, 0);
      this.bytes = size + this.queue.reduce((n, p) => n + p.bytes, 0);
      for (const p of carried) p.resolve();
      carried = [];
    } finally {
      // On failure the old file stays, and what was carried is written to it as usual.
      if (carried.length > 0) {
        const later = Buffer.from(this.staged.view());
        this.staged.clear();
        this.staged.addBytes(carriedBytes);
        this.staged.addBytes(later);
      }
      this.queue = carried.concat(this.queue);
      this.rewriting = null;
      release();
      if (this.queue.length > 0) this.schedule();
    }
  }

  /**
   * Starts a compaction (see `rewrite`) unless one is under way; a failure is logged and the old
   * file stays. For callers that compact from a hot path and must not wait.
   */
  compactInBackground(snapshot: () => string[] | RawLines): void {
    if (this.compacting) return;
    this.compacting = true;
    this.rewrite(snapshot)
      .catch((err: Error) => console.error(`compacting ${this.file} failed: ${err.message}`))
      .finally(() => (this.compacting = false));
  }

  /**
   * Writes the queued lines now instead of at the next turn (their syncs start as usual), so that a
   * process crash keeps them; not while a rewrite holds the file (they follow it).
   */
  writeQueued(): void {
    this.flush(true);
  }

  /** Waits for every queued append to be durable. */
  async drain(): Promise<void> {
    while (this.rewriting || this.queue.length > 0 || this.syncs.size > 0 || this.rotation) {
      if (this.rotation && this.queue.length === 0 && this.syncs.size === 0) await this.rotation;
      else if (this.rewriting) await this.rewriting;
      else if (this.queue.length > 0 && this.syncs.size < MAX_SYNCS) this.flush();
      else await Promise.race(this.syncs);
    }
  }

  /** Flushes what is queued and closes the file. */
  async close(): Promise<void> {
    await this.drain();
    if (this.waiting) clearTimeout(this.waiting);
    fs.closeSync(this.fd);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  /** Writes the queued lines and starts their sync; with too many syncs under way, waits for one (unless `now`). */
  private flush(now = false): void {
    if (this.rewriting || this.queue.length === 0 || (!now && this.syncs.size >= MAX_SYNCS)) return;
    if (this.waiting) clearTimeout(this.waiting);
    this.waiting = null;
    const batch = this.queue;
    this.queue = [];
    try {
      writeAllSync(this.fd, this.staged.view());
    } catch (err) {
      for (const p of batch) p.reject(err as Error);
      return;
    } finally {
      this.staged.clear();
    }
    const durable = batch.filter((p) => p.sync);
    for (const p of batch) if (!p.sync) p.resolve();
    if (durable.length === 0) return;
    const fd = this.fd;
    const rotation = this.rotation;
    const sync = new Promise<void>((resolve) => {
      const datasync = () =>
        fs.fdatasync(fd, (err) => {
          for (const p of durable)
            if (err) p.reject(err);
            else p.resolve();
          resolve();
        });
      if (rotation) void rotation.then(datasync);
      else datasync();
    }).finally(() => {
      this.syncs.delete(sync);
      if (this.queue.length > 0) this.schedule();
    });
    this.syncs.add(sync);
  }
}

const noop = () => {};

/** Writes chunks at the file's position, all of them: a short write (rare on a file) goes on where it stopped. */
async function writeChunks(handle: fsp.FileHandle, chunks: Buffer[]): Promise<void> {
  let { bytesWritten } = await handle.writev(chunks);
  for (const chunk of chunks) {
    if (bytesWritten >= chunk.length) bytesWritten -= chunk.length;
    else {
      await handle.writeFile(chunk.subarray(bytesWritten));
      bytesWritten = 0;
    }
  }
}

function writeAllSync(fd: number, buffer: Buffer): void {
  for (let offset = 0; offset < buffer.length; ) offset += fs.writeSync(fd, buffer, offset, buffer.length - offset);
}
