// The file of one data store, `DATA_DIR/data_stores/<id>.jsonl`: a line naming the store, then
// one line per change (set, ttl, delete, clear), replayed into memory when the stores open.
// Compaction rewrites it as the name line and one `set` line per live record.
import fsp from 'node:fs/promises';
import { AppendLog } from '../lib/append-log';
import type { ProblemSink } from '../lib/file-problems';

/** One line of a store's file. The first line names the store; later lines replay its changes. */
export type StoreLine = { t: 'store'; id: string; name: string; created_ms: number } | { t: 'name'; name: string } | { t: 'set'; k: string; x: number | null; v: unknown } | { t: 'ttl'; k: string; x: number | null } | { t: 'del'; k: string } | { t: 'clear' };

/** A record in memory. */
export interface Entry {
  /** The value's JSON text: every read parses a fresh copy, so callers cannot change what is stored. */
  json: string;
  /** Epoch ms after which the record reads as absent; null never expires. */
  expiresAt: number | null;
}

/** What a store's file holds once replayed. */
export interface StoreState {
  id: string;
  name: string;
  createdMs: number;
  records: Map<string, Entry>;
}

const isKey = (k: unknown) => typeof k === 'string' && k !== '';
const isExpiry = (x: unknown) => x === null || typeof x === 'number';

/** What is wrong with a line of a data store's file, or null for one of its lines. */
export function checkStoreLine(value: unknown): string | null {
  const line = value as Record<string, unknown> | null;
  if (typeof line !== 'object' || line === null) return 'not a data store line (a JSON object was expected)';
  const ok =
    (line.t === 'store' && typeof line.id === 'string' && typeof line.name === 'string' && typeof line.created_ms === 'number') ||
    (line.t === 'name' && typeof line.name === 'string') ||
    (line.t === 'set' && isKey(line.k) && isExpiry(line.x) && 'v' in line) ||
    (line.t === 'ttl' && isKey(line.k) && isExpiry(line.x)) ||
    (line.t === 'del' && isKey(line.k)) ||
    line.t === 'clear';
  return ok ? null : `not a data store line (unknown kind or missing fields: ${JSON.stringify(line.t ?? null)})`;
}

/** The line naming a store. */
export function headLine(state: Pick<StoreState, 'id' | 'name' | 'createdMs'>): string {
  return JSON.stringify({ t: 'store', id: state.id, name: state.name, created_ms: state.createdMs } satisfies StoreLine);
}

/** A `set` line built from the value's JSON text as it is, not parsed and serialised again. */
export function setLine(key: string, expiresAt: number | null, json: string): string {
  return `{"t":"set","k":${JSON.stringify(key)},"x":${expiresAt === null ? 'null' : String(expiresAt)},"v":${json}}`;
}

/** A change line other than `set`. */
export function changeLine(line: Exclude<StoreLine, { t: 'store' | 'set' }>): string {
  return JSON.stringify(line);
}

/** What a compacted file holds: the name line and a `set` line per record. */
export function snapshotLines(state: StoreState): string[] {
  const lines = [headLine(state)];
  for (const [key, entry] of state.records) lines.push(setLine(key, entry.expiresAt, entry.json));
  return lines;
}

/**
 * Opens a store's file and replays it. Null when it holds no store: a create that crashed before
 * its first line was durable (the file is removed: its id was never returned), or a file whose
 * first line names none (reported, and left as it is).
 */
export async function openStoreFile(file: string, report?: ProblemSink): Promise<{ log: AppendLog<StoreLine>; state: StoreState } | null> {
  let state: StoreState | null = null;
  let headless = false;
  const { log } = await AppendLog.open<StoreLine>(file, {
    check: checkStoreLine,
    report,
    onRecord: (line) => {
      if (state) replay(state, line);
      else if (line.t === 'store') state = { id: line.id, name: line.name, createdMs: line.created_ms, records: new Map() };
      else headless = true;
    },
  });
  if (state) return { log, state };
  await log.close();
  if (headless) report?.({ file, line: 1, message: 'does not start with its store line; the store is skipped and its file left as it is' });
  else await fsp.rm(file, { force: true });
  return null;
}

function replay(state: StoreState, line: StoreLine): void {
  switch (line.t) {
    case 'name':
      state.name = line.name;
      break;
    case 'set':
      state.records.delete(line.k);
      state.records.set(line.k, { json: JSON.stringify(line.v), expiresAt: line.x });
      break;
    case 'ttl': {
      const entry = state.records.get(line.k);
      if (entry) entry.expiresAt = line.x;
      break;
    }
    case 'del':
      state.records.delete(line.k);
      break;
    case 'clear':
      state.records.clear();
      break;
    case 'store':
      break;
  }
}

/** Makes a directory's entries (a created or removed file) durable. */
export async function syncDir(dir: string): Promise<void> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(dir, 'r');
    await handle.sync();
  } catch (err) {
    // Some platforms (Windows) cannot open or sync a directory; the file data itself is synced.
    if (!['EISDIR', 'EPERM', 'EINVAL', 'EBADF'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
  } finally {
    await handle?.close();
  }
}
