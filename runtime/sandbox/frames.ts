// Length-prefixed JSON frames over a byte stream: the channel between the service and a
// component host. Node's own IPC channel is not used because it has no size limit: a hostile
// component could write one endless message into it and exhaust the service's memory. Here the
// length comes first, and a frame over the limit ends the channel before any of it is buffered.
import type { Duplex } from 'node:stream';

/** Bytes of the length prefix (unsigned 32-bit, little-endian). */
const HEADER = 4;

/** Thrown (and reported to `onError`) when the peer breaks the framing. */
export class FrameError extends Error {}

export interface FrameChannelOptions {
  /** Largest frame accepted from the peer, in bytes; a larger one ends the channel. */
  maxFrameBytes: number;
  /** Largest frame this side sends (the peer's limit): `send` throws a FrameError past it. */
  maxSendBytes?: number;
  /**
   * Asked before a frame is read, with its size: answers true to read it now, or false and calls
   * `letIn` once it may be read; meanwhile the stream is not read (back-pressure on the peer).
   */
  admit?: (bytes: number, letIn: () => void) => boolean;
  /** Receives each message, in order, with the bytes `admit` let in for it. */
  onMessage: (message: unknown, bytes: number) => void;
  /** Receives a framing violation (over-long frame, bad JSON); no message follows it. */
  onError: (err: FrameError) => void;
}

/** A message channel of JSON frames on a duplex stream (a pipe to or from a host process). */
export class FrameChannel {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private broken = false;
  /** Bytes of the frame being read once `admit` let it in; 0 before. */
  private admitted = 0;
  /** True while `admit` keeps the next frame out. */
  private held = false;
  /** Frames sent in this turn of the event loop, written together in one write. */
  private outgoing: Buffer[] = [];
  private flushing = false;

  constructor(
    private readonly stream: Duplex,
    private readonly options: FrameChannelOptions,
  ) {
    stream.on('data', (chunk: Buffer) => this.receive(chunk));
  }

  /**
   * Sends a message; frames sent in the same turn of the event loop leave in one write (at its
   * check phase), so a burst of requests costs the peer one wake-up, not one each. Throws a
   * FrameError for one over `maxSendBytes`.
   */
  send(message: unknown): void {
    this.sendJson(JSON.stringify(message));
  }

  /** Sends a message already serialised as JSON (see `send`). */
  sendJson(json: string): void {
    if (this.broken || this.stream.destroyed) return;
    const body = Buffer.from(json, 'utf8');
    const max = this.options.maxSendBytes;
    if (max !== undefined && body.length > max) throw new FrameError(`a message of ${body.length} bytes is over the limit of ${max}`);
    const header = Buffer.allocUnsafe(HEADER);
    header.writeUInt32LE(body.length, 0);
    this.outgoing.push(header, body);
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => this.flush());
  }

  /** Sends a message and calls back once it is handed to the operating system. */
  sendNow(message: unknown, done: () => void): void {
    this.send(message);
    this.flush(done);
  }

  private flush(done?: () => void): void {
    this.flushing = false;
    const frames = this.outgoing;
    this.outgoing = [];
    if (frames.length === 0 || this.stream.destroyed) return void done?.();
    this.stream.write(Buffer.concat(frames), () => done?.());
  }

  private receive(chunk: Buffer): void {
    if (this.broken) return;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    this.read();
  }

  /** Reads the frames buffered, each once it is let in. */
  private read(): void {
    while (this.buffered >= HEADER && !this.held) {
      const head = this.peekHeader();
      if (head > this.options.maxFrameBytes) return this.fail(`a message of ${head} bytes is over the limit of ${this.options.maxFrameBytes}`);
      if (this.admitted === 0 && !this.letIn(HEADER + head)) return;
      if (this.buffered < HEADER + head) return;
      const bytes = this.admitted;
      this.admitted = 0;
      const frame = this.take(HEADER + head).subarray(HEADER);
      let message: unknown;
      try {
        message = JSON.parse(frame.toString('utf8'));
      } catch {
        return this.fail('a message is not JSON');
      }
      this.options.onMessage(message, bytes);
      if (this.broken) return;
    }
  }

  /** Asks `admit` to let a frame of `bytes` in; while it waits, the stream is paused. */
  private letIn(bytes: number): boolean {
    const admit = this.options.admit;
    if (!admit || admit(bytes, () => this.resume(bytes))) {
      this.admitted = bytes;
      return true;
    }
    this.held = true;
    this.stream.pause();
    return false;
  }

  private resume(bytes: number): void {
    this.held = false;
    this.admitted = bytes;
    if (this.broken) return;
    this.stream.resume();
    this.read();
  }

  private peekHeader(): number {
    const first = this.chunks[0] as Buffer;
    if (first.length >= HEADER) return first.readUInt32LE(0);
    const joined = Buffer.concat(this.chunks);
    this.chunks = [joined];
    return joined.readUInt32LE(0);
  }

  /** Removes and returns the first `n` buffered bytes. */
  private take(n: number): Buffer {
    const first = this.chunks[0] as Buffer;
    let out: Buffer;
    if (first.length >= n) {
      out = first.subarray(0, n);
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
    } else {
      const joined = Buffer.concat(this.chunks);
      out = joined.subarray(0, n);
      this.chunks = joined.length > n ? [joined.subarray(n)] : [];
    }
    this.buffered -= n;
    return out;
  }

  private fail(reason: string): void {
    this.broken = true;
    this.chunks = [];
    this.buffered = 0;
    this.options.onError(new FrameError(reason));
  }
}
