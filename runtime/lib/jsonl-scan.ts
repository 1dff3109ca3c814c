// Reading a JSON-lines file of the data dir, line by line, without ever holding the whole file:
// no size of file can fail a start. Each line is parsed and checked on its own; a damaged one
// (not JSON, not a record of this file, a block of NUL bytes a crash left, a line too long, a last
// line cut short) is reported with its line number and set aside in `<file>.damaged`, and the
// file is rewritten without it, so the next start finds it clean.
import fs from 'node:fs';
import path from 'node:path';
import type { ProblemSink } from './file-problems';
import { PRIVATE_FILE } from './private-files';

/** How one file is read. */
export interface ScanOptions {
  /** What is wrong with a parsed line, or null when it is a record of this file. */
  check?: (value: unknown) => string | null;
  /** Receives each good record, in order, with its 1-based line number, its size in bytes and the bytes themselves (valid only during the call). */
  onRecord: (value: unknown, line: number, bytes: number, raw: Buffer) => void;
  /** Longest line taken, in bytes; a longer one is set aside without being read into memory. */
  maxLineBytes?: number;
  /** True: damaged lines move to `<file>.damaged` and the file is rewritten without them. False: they are only reported (`spout doctor`). */
  repair: boolean;
  report: ProblemSink;
}

/** What a scan found. */
export interface ScanResult {
  /** Good records. */
  records: number;
  /** Damaged lines (or parts of lines). */
  damaged: number;
}

/** Longest line of a data file unless a store says otherwise: no record the service writes comes near it. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

const CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;

/** A part of the file to keep: bytes `[start, end)`, plus a newline when the part lacks one. */
type Segment = [start: number, end: number, addNewline: boolean];

/** Reads a JSON-lines file line by line (see the file comment); a missing file is empty. */
export function scanJsonLines(file: string, options: ScanOptions): ScanResult {
  const result = { records: 0, damaged: 0 };
  for (const _chunk of scanChunks(file, options, result));
  return result;
}

/**
 * Reads a file as scanJsonLines does, giving the event loop a turn after each chunk: a start (or a
 * store opened on first use) reading a file of any size holds up requests by one chunk at most.
 * The file must not be written meanwhile (no log is open on it yet).
 */
export async function scanJsonLinesYielding(file: string, options: ScanOptions): Promise<ScanResult> {
  const result = { records: 0, damaged: 0 };
  for (const _chunk of scanChunks(file, options, result)) await new Promise((resolve) => setImmediate(resolve));
  return result;
}

/** The scan of a file, one chunk per step; `result` is filled in at the end. */
function* scanChunks(file: string, options: ScanOptions, result: ScanResult): Generator<void> {
  const fd = openOrNull(file);
  if (fd === null) return;
  const scan = new Scan(file, options);
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let offset = 0;
    for (let got = scan.readChunk(fd, buffer, offset); got > 0; got = scan.readChunk(fd, buffer, offset)) {
      offset += got;
      yield;
    }
    scan.takeTail(offset);
  } finally {
    fs.closeSync(fd);
    scan.closeDamaged();
  }
  scan.finish();
  result.records = scan.records;
  result.damaged = scan.damaged;
}

/** The file opened for reading, or null when it does not exist. */
function openOrNull(file: string): number | null {
  try {
    return fs.openSync(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

class Scan {
  records = 0;
  damaged = 0;
  private line = 0;
  /** Bytes of the line under way that came in earlier chunks. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** File offset where the line under way starts. */
  private lineStart = 0;
  /** The line under way is over the limit: its bytes go straight to the damaged file. */
  private oversize = false;
  private readonly keep: Segment[] = [];
  /** The last line has no newline but is a good record: one is added. */
  private tailNeedsNewline = false;
  private damagedFd: number | null = null;
  private readonly maxLineBytes: number;
  private readonly aside: string;

  constructor(
    private readonly file: string,
    private readonly options: ScanOptions,
  ) {
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.aside = `${file}.damaged`;
  }

  /** Reads and takes the lines of the chunk at `offset` (a line running past it is carried); the bytes read, 0 at the end of the file. */
  readChunk(fd: number, buffer: Buffer, offset: number): number {
    const got = fs.readSync(fd, buffer, 0, CHUNK_BYTES, offset);
    let pos = 0;
    while (pos < got) {
      const nl = buffer.indexOf(NEWLINE, pos);
      if (nl === -1 || nl >= got) {
        this.carry(buffer.subarray(pos, got));
        break;
      }
      const end = offset + nl + 1;
      if (this.oversize) this.endOversize(buffer.subarray(pos, nl), end);
      else if (this.pendingBytes === 0) this.takeLine(buffer.subarray(pos, nl), end);
      else this.takeLine(Buffer.concat([...this.pending, buffer.subarray(pos, nl)]), end);
      this.pending = [];
      this.pendingBytes = 0;
      this.lineStart = end;
      pos = nl + 1;
    }
    return got;
  }

  /** Rewrites the file without its damaged lines (or adds the missing last newline). */
  finish(): void {
    if (!this.options.repair) return;
    if (this.damaged > 0) this.rewrite();
    else if (this.tailNeedsNewline) fs.appendFileSync(this.file, '\n');
  }

  closeDamaged(): void {
    if (this.damagedFd !== null) fs.closeSync(this.damagedFd);
    this.damagedFd = null;
  }

  /** Keeps the part of a line that continues into the next chunk. */
  private carry(part: Buffer): void {
    if (this.oversize) return this.setAside(part, false);
    this.pending.push(Buffer.from(part));
    this.pendingBytes += part.length;
    if (this.pendingBytes > this.maxLineBytes) {
      this.oversize = true;
      for (const p of this.pending) this.setAside(p, false);
      this.pending = [];
    }
  }

  private takeLine(bytes: Buffer, end: number): void {
    this.line++;
    if (bytes.length === 0) return this.keepPart(this.lineStart, end, false);
    if (bytes.length > this.maxLineBytes) {
      this.setAside(bytes, true);
      return this.problem(`${size(bytes.length)} long, over the ${size(this.maxLineBytes)} a line of this file may hold`);
    }
    if (bytes.includes(0)) return this.takeWithNuls(bytes, end);
    if (this.accept(bytes)) this.keepPart(this.lineStart, end, false);
  }

  /** The end of a line too long to read: it was set aside as it came. */
  private endOversize(rest: Buffer, end: number): void {
    this.line++;
    this.setAside(rest, true);
    this.oversize = false;
    this.problem(`${size(end - this.lineStart - 1)} long, over the ${size(this.maxLineBytes)} a line of this file may hold`);
  }

  /**
   * A line holding NUL bytes: what the disk kept of a block the service never finished writing
   * (a crash or a power cut). The NUL runs are dropped; the text between them is read as lines.
   */
  private takeWithNuls(bytes: Buffer, end: number, complete = true): void {
    let pos = 0;
    while (pos < bytes.length) {
      let nul = bytes.indexOf(0, pos);
      if (nul === -1) nul = bytes.length;
      if (nul > pos) {
        const piece = bytes.subarray(pos, nul);
        const start = this.lineStart + pos;
        const last = nul === bytes.length;
        if (last && !complete) return this.takeCut(piece, start, end);
        if (this.accept(piece)) this.keepPart(start, last ? end : start + piece.length, !last);
      }
      if (nul === bytes.length) break;
      let run = nul;
      while (run < bytes.length && bytes[run] === 0) run++;
      this.damaged++;
      this.problem(`${run - nul} NUL bytes (a block the disk kept but the service never wrote: a crash or a power cut)${this.options.repair ? '; dropped' : ''}`);
      pos = run;
    }
  }

  /** The last line, without its newline. */
  takeTail(fileEnd: number): void {
    if (this.oversize) {
      this.line++;
      this.oversize = false;
      return this.problem(`cut short (the service stopped while writing it), and over the ${size(this.maxLineBytes)} a line of this file may hold`);
    }
    if (this.pendingBytes === 0) return;
    this.line++;
    const bytes = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    if (bytes.includes(0)) this.takeWithNuls(bytes, fileEnd, false);
    else this.takeCut(bytes, this.lineStart, fileEnd);
  }

  /** Text at the very end of the file, after the last newline: a record (its newline is added) or a line cut short. */
  private takeCut(bytes: Buffer, start: number, fileEnd: number): void {
    const parsed = parse(bytes);
    if (parsed !== undefined && !this.options.check?.(parsed.value)) {
      this.records++;
      this.options.onRecord(parsed.value, this.line, bytes.length, bytes);
      this.keepPart(start, fileEnd, true);
      this.tailNeedsNewline = true;
      return;
    }
    this.setAside(bytes, true);
    this.problem('cut short (the service stopped while writing it)');
  }

  /** Parses and checks one line; a good one goes to `onRecord`, a bad one is set aside. */
  private accept(bytes: Buffer): boolean {
    const parsed = parse(bytes);
    const problem = parsed === undefined ? notJson(bytes) : this.options.check?.(parsed.value);
    if (parsed !== undefined && !problem) {
      this.records++;
      this.options.onRecord(parsed.value, this.line, bytes.length, bytes);
      return true;
    }
    this.setAside(bytes, true);
    this.problem(problem as string);
    return false;
  }

  private keepPart(start: number, end: number, addNewline: boolean): void {
    const last = this.keep.at(-1);
    if (last && last[1] === start && !last[2]) {
      last[1] = end;
      last[2] = addNewline;
    } else this.keep.push([start, end, addNewline]);
  }

  private setAside(bytes: Buffer, endOfLine: boolean): void {
    if (endOfLine) this.damaged++;
    if (!this.options.repair) return;
    this.damagedFd ??= fs.openSync(this.aside, 'a', PRIVATE_FILE);
    writeAll(this.damagedFd, bytes);
    if (endOfLine) writeAll(this.damagedFd, Buffer.from('\n'));
  }

  private problem(message: string): void {
    const where = this.options.repair && !message.endsWith('; dropped') ? `; set aside in ${path.basename(this.aside)}` : '';
    this.options.report({ file: this.file, line: this.line, message: `${message}${where}` });
  }

  /** Writes the kept parts to a new file and puts it in place of the old one. */
  private rewrite(): void {
    const temp = `${this.file}.repair.tmp`;
    fs.rmSync(temp, { force: true });
    const from = fs.openSync(this.file, 'r');
    const to = fs.openSync(temp, 'wx', PRIVATE_FILE);
    try {
      const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
      for (const [start, end, addNewline] of this.keep) {
        for (let at = start; at < end; ) {
          const got = fs.readSync(from, buffer, 0, Math.min(CHUNK_BYTES, end - at), at);
          if (got === 0) break;
          writeAll(to, buffer.subarray(0, got));
          at += got;
        }
        if (addNewline) writeAll(to, Buffer.from('\n'));
      }
      fs.fdatasyncSync(to);
    } finally {
      fs.closeSync(from);
      fs.closeSync(to);
    }
    fs.renameSync(temp, this.file);
  }
}

function parse(bytes: Buffer): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(bytes.toString('utf8')) as unknown };
  } catch {
    return undefined;
  }
}

/** "not JSON" with the start of the line, so the report shows what was there. */
function notJson(bytes: Buffer): string {
  const text = bytes
    .subarray(0, 60)
    .toString('utf8')
    .replace(/[\x00-\x1f]/g, ' ');
  return `not JSON (${JSON.stringify(text)}${bytes.length > 60 ? '…' : ''})`;
}

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1048576).toFixed(1)} MB` : `${bytes} bytes`;
}

function writeAll(fd: number, bytes: Buffer): void {
  for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes, at, bytes.length - at);
}
