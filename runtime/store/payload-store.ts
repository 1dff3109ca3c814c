// Saved test payloads: each source's small library of named requests that "run now" can send, one
// JSON file per source under DATA_DIR/payloads (whole-file state, like db/ and dedupe/), read when
// first asked for and removed with the source.
import path from 'node:path';
import type { SavedPayload } from '../contract/run-request-api';
import type { ProblemSink } from '../lib/file-problems';
import { KeyedWrites } from '../lib/keyed-writes';
import { readStateFile, removeStateFile, writeStateFile } from '../lib/state-file';

/** Each source's saved payloads, by name, in the order they were first saved. */
export class PayloadStore {
  private readonly payloads = new Map<string, SavedPayload[]>();
  private readonly writes = new KeyedWrites();

  constructor(
    private readonly dir: string,
    /** Receives what was found damaged when a source's file is read. */
    private readonly report?: ProblemSink,
  ) {}

  /** A source's saved payloads, oldest first. */
  list(sourceId: string): SavedPayload[] {
    let list = this.payloads.get(sourceId);
    if (!list) {
      list = readStateFile(this.file(sourceId), parsePayloads, this.report).value ?? [];
      this.payloads.set(sourceId, list);
    }
    return list;
  }

  /** One saved payload by name. */
  get(sourceId: string, name: string): SavedPayload | undefined {
    return this.list(sourceId).find((p) => p.name === name);
  }

  /** Saves a payload, replacing the one of its name (keeping its place and creation time); resolves once it is on disk. */
  async put(sourceId: string, payload: SavedPayload): Promise<SavedPayload> {
    const list = this.list(sourceId);
    const at = list.findIndex((p) => p.name === payload.name);
    const saved = at === -1 ? payload : { ...payload, created_at: list[at]!.created_at };
    if (at === -1) list.push(saved);
    else list[at] = saved;
    await this.save(sourceId);
    return saved;
  }

  /** Deletes a saved payload; resolves whether it existed. */
  async delete(sourceId: string, name: string): Promise<boolean> {
    const list = this.list(sourceId);
    const at = list.findIndex((p) => p.name === name);
    if (at === -1) return false;
    list.splice(at, 1);
    await this.save(sourceId);
    return true;
  }

  /** Removes every saved payload of a source (the source is deleted). */
  async remove(sourceId: string): Promise<void> {
    this.payloads.delete(sourceId);
    await this.writes.settled(sourceId);
    await removeStateFile(this.file(sourceId));
  }

  private save(sourceId: string): Promise<void> {
    return this.writes.queue(sourceId, () => writeStateFile(this.file(sourceId), `${JSON.stringify(this.list(sourceId), null, 2)}\n`));
  }

  private file(sourceId: string): string {
    return path.join(this.dir, `${sourceId}.json`);
  }
}

/** A payloads file's content; throws when it is not a list of saved payloads. */
export function parsePayloads(text: string): SavedPayload[] {
  const list = JSON.parse(text) as unknown;
  if (!Array.isArray(list)) throw new Error('not a list of saved payloads');
  for (const p of list as Array<Partial<SavedPayload> | null>) {
    if (typeof p !== 'object' || p === null || typeof p.name !== 'string' || typeof p.method !== 'string' || typeof p.body !== 'string') throw new Error('an entry is not a saved payload (name, method, body)');
  }
  return list as SavedPayload[];
}
