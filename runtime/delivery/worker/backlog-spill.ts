import fs from 'node:fs';

/** Bytes read from a spill file at a time. */
const CHUNK_BYTES = 256 * 1024;

/** Lines appended one at a time (a start's replay) are written this many at once. */
const APPEND_LINES = 1024;

const NEWLINE = 0x0a;

/**
 * One webhook's messages past its window in memory (see Outbox): their lines, oldest first, in a
 * file of their own that is read back from the front as the window drains. Not the durable record
 * (deliveries.jsonl is; the file is rebuilt from it at each start), so it is written without a
 * sync, and emptied once everything in it has been read back.
 */
export class SpillFile {
  private readonly fd: number;
  /** Byte offset of the next line to read back, and of the end of the file. */
  private readAt = 0;
  private writeAt = 0;
  /** Lines written and not yet read back (taken ones included). */
  private lines = 0;
  /** Ids taken into memory before their turn (a resend, a recover): skipped when read back. */
  private readonly taken = new Set<string>();
  /** Lines appended and not yet written (counted in `lines`). */
  private appended: string[] = [];

  constructor(readonly file: string) {
    this.fd = fs.openSync(file, 'w+', 0o600);
  }

  /** Messages waiting in the file (not taken). */
  get size(): number {
    return this.lines - this.taken.size;
  }

  /** Appends a line after the last; written with the next APPEND_LINES, or before the file is read. */
  append(line: string): void {
    this.appended.push(line);
    this.lines++;
    if (this.appended.length >= APPEND_LINES) this.flush();
  }

  /** Writes the lines appended so far. */
  flush(): void {
    if (this.appended.length === 0) return;
    const lines = this.appended;
    this.appended = [];
    this.lines -= lines.length;
    this.write(lines);
  }

  /** Appends lines after the last. */
  write(lines: readonly string[]): void {
    if (lines.length === 0) return;
    this.flush();
    const bytes = Buffer.from(`${lines.join('\n')}\n`);
    let done = 0;
    while (done < bytes.length) done += fs.writeSync(this.fd, bytes, done, bytes.length - done, this.writeAt + done);
    this.writeAt += bytes.length;
    this.lines += lines.length;
  }

  /** Notes a message taken into memory before its turn: it is not read back. */
  take(id: string): void {
    this.taken.add(id);
  }

  /** Reads back up to `max` lines, oldest first, leaving out the taken ones (`idOf` names a line's message). */
  read(max: number, idOf: (line: string) => string): string[] {
    const out: string[] = [];
    this.eachLine((line, end) => {
      this.readAt = end;
      this.lines--;
      const id = idOf(line);
      if (this.taken.delete(id)) return true;
      out.push(line);
      return out.length < max;
    });
    if (this.lines === 0) {
      // Everything was read back: the file starts again from nothing instead of growing for good.
      fs.ftruncateSync(this.fd, 0);
      this.readAt = this.writeAt = 0;
      this.taken.clear();
    }
    return out;
  }

  /** Calls `visit` with every line not yet read back, oldest first (taken ones left out), until it answers false. */
  scan(idOf: (line: string) => string, visit: (line: string) => boolean): void {
    this.eachLine((line) => (this.taken.size > 0 && this.taken.has(idOf(line))) || visit(line));
  }

  /** Closes and removes the file. */
  remove(): void {
    fs.closeSync(this.fd);
    fs.rmSync(this.file, { force: true });
  }

  /** Reads lines from `readAt` in chunks; `visit` gets each with the offset past its newline. */
  private eachLine(visit: (line: string, end: number) => boolean): void {
    this.flush();
    let at = this.readAt;
    let rest: Buffer = Buffer.alloc(0);
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    while (at < this.writeAt) {
      const n = fs.readSync(this.fd, chunk, 0, Math.min(CHUNK_BYTES, this.writeAt - at), at);
      if (n === 0) return;
      const bytes = rest.length ? Buffer.concat([rest, chunk.subarray(0, n)]) : chunk.subarray(0, n);
      const base = at - rest.length;
      at += n;
      let start = 0;
      for (let nl = bytes.indexOf(NEWLINE, start); nl !== -1; nl = bytes.indexOf(NEWLINE, start)) {
        const line = bytes.toString('utf8', start, nl);
        start = nl + 1;
        if (!visit(line, base + start)) return;
      }
      rest = Buffer.from(bytes.subarray(start));
    }
  }
}
