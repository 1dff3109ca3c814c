// Lines waiting to be written, encoded once into one reusable buffer. Joining the lines, measuring
// the result and encoding it passed over every byte three more times, on the hot path of every
// log (events, run records, deliveries).

const NEWLINE = 0x0a;
/** Starting size; a buffer grown past `KEPT_BYTES` for a burst is let go once written. */
const START_BYTES = 64 * 1024;
const KEPT_BYTES = 1024 * 1024;
/** Lines up to this many UTF-16 units are encoded without measuring them first (3 bytes a unit at most). */
const UNMEASURED = 64 * 1024;

/** UTF-8 lines, each followed by a newline, gathered for one write. */
export class LineStaging {
  private buffer = Buffer.allocUnsafe(START_BYTES);
  private length = 0;

  /** Appends a line (without its newline); returns its bytes, newline included. */
  add(line: string): number {
    this.reserve(line.length <= UNMEASURED ? line.length * 3 + 1 : Buffer.byteLength(line) + 1);
    const written = this.buffer.write(line, this.length, 'utf8');
    this.buffer[this.length + written] = NEWLINE;
    this.length += written + 1;
    return written + 1;
  }

  /** The bytes of the line `add` just appended, `size` being what it returned (without the newline; valid until the next change). */
  last(size: number): Buffer {
    return this.buffer.subarray(this.length - size, this.length - 1);
  }

  /** Appends bytes as they are. */
  addBytes(bytes: Buffer): void {
    this.reserve(bytes.length);
    bytes.copy(this.buffer, this.length);
    this.length += bytes.length;
  }

  /** The gathered bytes, a view valid until the next change. */
  view(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  /** Forgets what was gathered (after it was written, or taken with `view` and copied). */
  clear(): void {
    this.length = 0;
    if (this.buffer.length > KEPT_BYTES) this.buffer = Buffer.allocUnsafe(START_BYTES);
  }

  private reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * this.buffer.length, this.length + bytes));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
}
