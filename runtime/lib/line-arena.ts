// Lines of text kept outside the JavaScript heap, in large buffers, and dropped oldest first.
// A store that keeps hundreds of thousands of records (run records, up to the retention) would
// otherwise hold as many strings on the heap: each major collection walks them and moves some,
// and the heap grows to several times their size between collections, so a run cost more the
// more runs were kept. In buffers they cost the collector a few objects per megabyte.

/** Bytes of one buffer; a longer line spans several. */
const SLAB_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;
const NEWLINE_BYTES = Buffer.from('\n');

/** A compaction's content as bytes: `count` lines, each ending in a newline, in `chunks` (see AppendLog.rewrite). */
export interface RawLines {
  chunks: Buffer[];
  count: number;
}

/** Where a line is in an arena: its position and its length in bytes (its newline follows). */
export interface LineSpan {
  at: number;
  bytes: number;
}

/**
 * An append-only run of UTF-8 lines, each followed by a newline, in 1 MB buffers: the bytes from a
 * line to the end are the lines of a JSON-lines file, ready to write. The oldest buffers are
 * freed with `releaseThrough`.
 */
export class LineArena {
  private readonly slabs: Buffer[] = [];
  /** Position of the first byte of `slabs[0]`. */
  private base = 0;
  /** Position of the next byte to write. */
  private end = 0;

  /** Appends a line (a string, or its UTF-8 bytes, without a newline); returns where it is. */
  append(line: string | Buffer): LineSpan {
    const at = this.end;
    const bytes = typeof line === 'string' ? Buffer.byteLength(line) : line.length;
    const offset = at - this.base - (this.slabs.length - 1) * SLAB_BYTES;
    const last = this.slabs[this.slabs.length - 1];
    if (last && offset + bytes + 1 <= SLAB_BYTES) {
      // The common case: the line fits the current buffer and is encoded straight into it.
      if (typeof line === 'string') last.write(line, offset, 'utf8');
      else line.copy(last, offset);
      last[offset + bytes] = NEWLINE;
    } else this.spread(Buffer.concat([typeof line === 'string' ? Buffer.from(line, 'utf8') : line, NEWLINE_BYTES]), at);
    this.end = at + bytes + 1;
    return { at, bytes };
  }

  /** The line at `span` (which must not have been released). */
  read(span: LineSpan): string {
    const start = span.at - this.base;
    const slab = Math.floor(start / SLAB_BYTES);
    const offset = start - slab * SLAB_BYTES;
    if (offset + span.bytes <= SLAB_BYTES) return (this.slabs[slab] as Buffer).toString('utf8', offset, offset + span.bytes);
    const out = Buffer.allocUnsafe(span.bytes);
    for (let copied = 0; copied < span.bytes; ) {
      const from = start + copied;
      const piece = this.slabs[Math.floor(from / SLAB_BYTES)] as Buffer;
      const pieceOffset = from % SLAB_BYTES;
      copied += piece.copy(out, copied, pieceOffset, Math.min(SLAB_BYTES, pieceOffset + span.bytes - copied));
    }
    return out.toString('utf8');
  }

  /** Whether the line at `span` can still be read (its buffer was not released). */
  holds(span: LineSpan): boolean {
    return span.at >= this.base;
  }

  /** Lets go of the lines up to and including `span`: the buffers holding only those are freed. */
  releaseThrough(span: LineSpan): void {
    const position = span.at + span.bytes + 1;
    while (this.slabs.length > 1 && this.base + SLAB_BYTES <= position) {
      this.slabs.shift();
      this.base += SLAB_BYTES;
    }
  }

  /**
   * The bytes from the line at `from` to the end, as views of the buffers (no copy): they stay as
   * they are while appends go on and lines are released, so they can be written out at leisure.
   */
  bytesFrom(from: LineSpan): Buffer[] {
    const out: Buffer[] = [];
    for (let position = from.at; position < this.end; ) {
      const index = Math.floor((position - this.base) / SLAB_BYTES);
      const offset = (position - this.base) % SLAB_BYTES;
      const length = Math.min(SLAB_BYTES - offset, this.end - position);
      out.push((this.slabs[index] as Buffer).subarray(offset, offset + length));
      position += length;
    }
    return out;
  }

  /** The `count` lines from `first` (none when it is absent) to the end, for compaction: views, as `bytesFrom`. */
  linesFrom(first: LineSpan | null | undefined, count: number): RawLines {
    return { chunks: first ? this.bytesFrom(first) : [], count };
  }

  /** Writes bytes at the end, across as many new buffers as they need. */
  private spread(bytes: Buffer, at: number): void {
    for (let written = 0; written < bytes.length; ) {
      const position = at + written;
      const index = Math.floor((position - this.base) / SLAB_BYTES);
      // Off the heap: Buffer's shared pool is for small buffers, and these live long.
      if (index >= this.slabs.length) this.slabs.push(Buffer.allocUnsafeSlow(SLAB_BYTES));
      const offset = (position - this.base) % SLAB_BYTES;
      written += bytes.copy(this.slabs[index] as Buffer, offset, written, Math.min(bytes.length, written + SLAB_BYTES - offset));
    }
  }
}
