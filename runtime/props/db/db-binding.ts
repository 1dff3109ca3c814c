// Host side of `$.service.db`: synchronous get/set, as registry components call them, over a copy
// of the source's db that the service sends. The host has no access to the db file: it reports
// the keys each invocation changed, and the service stores them (see store/source-dbs.ts).
import type { DbEntries, DbWrite } from '../../contract/host-protocol';
import { MAX_DB_VALUE_BYTES } from '../../contract/limits';
import type { DbApi, PropBinding } from '../shared/kind-interface';

/** `this.<$.service.db prop>`: the host's copy of the source's db. */
export const bindDb: PropBinding = (_name, _def, host) => host.db;

/** The host's copy of a source's db, and the keys its invocations wrote. */
export class HostDb {
  /** Values as JSON text: every `get` hands out a fresh copy, so mutating it changes nothing stored. */
  private values = new Map<string, string>();
  /** Keys set since the last `takeWrites`, with their new text (null: removed). */
  private written = new Map<string, string | null>();

  /** What `this.db` exposes. */
  api(): DbApi {
    return {
      get: (key) => {
        const text = this.values.get(String(key));
        return text === undefined ? undefined : JSON.parse(text);
      },
      set: (key, value) => {
        const k = String(key);
        if (value === undefined) {
          this.values.delete(k);
          this.written.set(k, null);
        } else {
          const text = serialise(k, value);
          this.values.set(k, text);
          this.written.set(k, text);
        }
      },
    };
  }

  /** Replaces the copy with the service's (written elsewhere since this host last saw it); unreported writes are kept on top. */
  replace(entries: DbEntries): void {
    this.values = new Map(Object.entries(entries));
    for (const [key, text] of this.written) {
      if (text === null) this.values.delete(key);
      else this.values.set(key, text);
    }
  }

  /** The keys changed since the last call, for the service to store. */
  takeWrites(): DbWrite[] {
    if (this.written.size === 0) return [];
    const writes = [...this.written];
    this.written = new Map();
    return writes;
  }
}

function serialise(key: string, value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (err) {
    throw new TypeError(`db.set("${key}"): the value is not JSON-serialisable (${(err as Error).message})`);
  }
  if (text === undefined) throw new TypeError(`db.set("${key}"): a ${typeof value} cannot be stored; store JSON values (objects, arrays, strings, numbers, booleans, null)`);
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_DB_VALUE_BYTES) throw new RangeError(`db.set("${key}"): the value is ${bytes} bytes as JSON; the limit is ${MAX_DB_VALUE_BYTES / 1048576} MB per value (docs/security.md)`);
  return text;
}
