import fs from 'node:fs';
import fsp from 'node:fs/promises';

interface Pending {
  line: string;
  count: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

/**
 * An append-only file of JSON lines with group commit: appends made in the same tick are written
 * with one write and made durable with one fdatasync, and each append resolves only once its line
 * is on disk. A torn last line (a crash mid-write) is ignored when the file is read back.
 */
export class AppendLog<T> {
  private fd: number;
  private queue: Pending[] = [];
  private flushing: Promise<void> | null = null;
  private scheduled = false;
  private lines: number;

  private constructor(
    readonly file: string,
    fd: number,
    lines: number,
  ) {
    this.fd = fd;
    this.lines = lines;
  }

  /** Opens (creating if needed) the log and returns it with the records already in it. */
  static async open<T>(file: string): Promise<{ log: AppendLog<T>; records: T[] }> {
    const records: T[] = [];
    let text = '';
    try {
      text = await fsp.readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    let end = 0;
    for (let start = 0; start < text.length; start = end + 1) {
      end = text.indexOf('\n', start);
      if (end === -1) break; // a line without its newline was cut by a crash: drop it
      const line = text.slice(start, end);
      if (line) records.push(JSON.parse(line) as T);
    }
    if (end === -1 && text.length > 0) {
      // Drop the torn tail so that the next append starts on a fresh line.
      await fsp.truncate(file, text.lastIndexOf('\n') + 1);
    }
    const fd = fs.openSync(file, 'a', 0o600);
    return { log: new AppendLog<T>(file, fd, records.length), records };
  }

  /** Number of lines in the file (written or queued). */
  get lineCount(): number {
    return this.lines;
  }

  /** Appends one record; resolves once it is durable. */
  append(record: T): Promise<void> {
    return this.appendMany([record]);
  }

  /** Appends records as consecutive lines; resolves once all are durable. */
  appendMany(records: T[]): Promise<void> {
    return this.appendLines(records.map((r) => JSON.stringify(r)));
  }

  /** Appends lines already serialised as JSON (each must be one `T` without newlines). */
  appendLines(lines: string[]): Promise<void> {
    if (lines.length === 0) return Promise.resolve();
    const line = lines.join('\n') + '\n';
    this.lines += lines.length;
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ line, count: lines.length, resolve, reject });
      this.schedule();
    });
  }

  /**
   * Compaction: replaces the whole file, atomically, with the lines `snapshot` returns. It is
   * called once every earlier append is on disk, so the snapshot already holds them; appends
   * made while the new file is written wait and land after it.
   */
  async rewrite(snapshot: () => string[]): Promise<void> {
    for (;;) {
      await this.drain();
      if (!this.flushing && this.queue.length === 0) break;
    }
    const lines = snapshot();
    const work = (async () => {
      const tmp = `${this.file}.tmp`;
      const handle = await fsp.open(tmp, 'w', 0o600);
      try {
        await handle.writeFile(lines.map((l) => l + '\n').join(''));
        await handle.datasync();
      } finally {
        await handle.close();
      }
      await fsp.rename(tmp, this.file);
      fs.closeSync(this.fd);
      this.fd = fs.openSync(this.file, 'a', 0o600);
      this.lines = lines.length + this.queue.reduce((n, p) => n + p.count, 0);
    })();
    this.flushing = work.finally(() => {
      this.flushing = null;
      if (this.queue.length > 0) this.schedule();
    });
    await this.flushing;
  }

  /** Waits for every queued append to be durable. */
  async drain(): Promise<void> {
    while (this.flushing || this.queue.length > 0) {
      if (this.flushing) await this.flushing;
      else await this.flush();
    }
  }

  /** Flushes what is queued and closes the file. */
  async close(): Promise<void> {
    await this.drain();
    fs.closeSync(this.fd);
  }

  private schedule(): void {
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return Promise.resolve();
    this.flushing = (async () => {
      try {
        const buffer = Buffer.from(batch.map((p) => p.line).join(''));
        await writeAll(this.fd, buffer);
        await new Promise<void>((resolve, reject) => fs.fdatasync(this.fd, (err) => (err ? reject(err) : resolve())));
        for (const p of batch) p.resolve();
      } catch (err) {
        for (const p of batch) p.reject(err as Error);
      } finally {
        this.flushing = null;
        if (this.queue.length > 0) this.schedule();
      }
    })();
    return this.flushing;
  }
}

async function writeAll(fd: number, buffer: Buffer): Promise<void> {
  let offset = 0;
  while (offset < buffer.length) {
    offset += await new Promise<number>((resolve, reject) =>
      fs.write(fd, buffer, offset, buffer.length - offset, null, (err, written) => (err ? reject(err) : resolve(written))),
    );
  }
}
