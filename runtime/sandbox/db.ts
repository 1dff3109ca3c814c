// Worker side of `$.service.db`: synchronous get/set, as registry components call them, over a
// JSON file private to the source. The file is the truth shared by every worker the source ever
// has (an update's replacement, a worker restarted after a crash): each invocation starts by
// re-reading it if another worker changed it, and ends by writing its own changes.
import fs from 'node:fs';
import path from 'node:path';

/** The object `this.db` is. */
export interface DbApi {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
}

export class SourceDb {
  /** Values as JSON text: every `get` hands out a fresh copy, so mutating it changes nothing stored. */
  private values = new Map<string, string>();
  private dirty = false;
  /** Identity of the file version last read or written. */
  private seen = '';

  /** `file` null keeps the db in memory only (configuration forms: no source exists yet). */
  constructor(private readonly file: string | null) {}

  /** What `this.db` exposes. */
  api(): DbApi {
    return {
      get: (key) => {
        const text = this.values.get(String(key));
        return text === undefined ? undefined : JSON.parse(text);
      },
      set: (key, value) => {
        if (value === undefined) this.values.delete(String(key));
        else this.values.set(String(key), serialise(key, value));
        this.dirty = true;
      },
    };
  }

  /** Re-reads the file if someone else wrote it since we last did. */
  refresh(): void {
    if (!this.file) return;
    const version = fileVersion(this.file);
    if (version === this.seen) return;
    const text = version ? fs.readFileSync(this.file, 'utf8') : '{}';
    this.values = new Map(Object.entries(JSON.parse(text) as Record<string, unknown>).map(([k, v]) => [k, JSON.stringify(v)]));
    this.seen = version;
    this.dirty = false;
  }

  /** Writes the changes of the invocation that just ended (write and rename: never a torn file). */
  flush(): void {
    if (!this.file || !this.dirty) return;
    const entries = [...this.values].map(([k, v]) => `${JSON.stringify(k)}:${v}`);
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.${Date.now()}.tmp`;
    fs.writeFileSync(temp, `{${entries.join(',')}}`);
    fs.renameSync(temp, this.file);
    this.seen = fileVersion(this.file);
    this.dirty = false;
  }
}

function serialise(key: unknown, value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (err) {
    throw new TypeError(`db.set("${String(key)}"): the value is not JSON-serialisable (${(err as Error).message})`);
  }
  if (text === undefined) throw new TypeError(`db.set("${String(key)}"): a ${typeof value} cannot be stored; store JSON values (objects, arrays, strings, numbers, booleans, null)`);
  return text;
}

function fileVersion(file: string): string {
  try {
    const s = fs.statSync(file);
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}
