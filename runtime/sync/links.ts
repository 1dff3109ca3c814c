// Which local resource is which remote one, and how each looked when last synced: kept per remote
// in the data dir (`sync-links.json`), so an update keeps the remote's ids and a change made on
// either side since is seen.
import path from 'node:path';
import { z } from 'zod';
import { KINDS } from '../contract/sync-api';
import { printProblem } from '../lib/file-problems';
import { readStateFile, writeStateFile } from '../lib/state-file';

export const linkSchema = z.object({
  kind: z.enum(KINDS),
  local_id: z.string().min(1).max(300),
  remote_id: z.string().min(1).max(300),
  /** Hash of the resource on each side right after the last apply. */
  local_hash: z.string().max(100),
  remote_hash: z.string().max(100),
  /** Hash of the secret values last sent (only set by --with-secrets). */
  secrets_hash: z.string().max(100).nullable().optional(),
  /** Secret values the receiving side still waits for (the source stays inactive there). */
  awaiting: z.array(z.string().max(300)).max(200).optional(),
  /** Hash of the data store's records last sent (--with-data). */
  records_hash: z.string().max(100).nullable().optional(),
});
export type Link = z.infer<typeof linkSchema>;

/** Links of one remote. */
export interface RemoteLinks {
  remote: string;
  last_sync_at: number | null;
  links: Link[];
}

/** A change to one remote's links: links replaced (by kind and local id), links dropped, the time of a finished apply. */
export const linkChangeSchema = z.object({
  remote: z.string().min(1).max(500),
  upsert: z.array(linkSchema).max(10_000).default([]),
  remove: z
    .array(z.object({ kind: z.enum(KINDS), local_id: z.string().min(1) }))
    .max(10_000)
    .default([]),
  last_sync_at: z.number().int().positive().optional(),
});
export type LinkChange = z.input<typeof linkChangeSchema>;

/** Where links are read and written: the data dir in the service, /v1/sync/links from the CLI. */
export interface LinkStore {
  read(remote: string): Promise<RemoteLinks>;
  save(change: LinkChange): Promise<void>;
}

const sameLink = (a: { kind: string; local_id: string }, b: { kind: string; local_id: string }) => a.kind === b.kind && a.local_id === b.local_id;

/** Applies a change to a remote's links. */
export function changeLinks(current: RemoteLinks, change: z.infer<typeof linkChangeSchema>): RemoteLinks {
  const links = current.links.filter((l) => !change.remove.some((r) => sameLink(l, r)) && !change.upsert.some((u) => sameLink(l, u)));
  return { remote: current.remote, last_sync_at: change.last_sync_at ?? current.last_sync_at, links: [...links, ...change.upsert] };
}

/** A links file's remotes; throws when it is not a links file. */
export function parseLinks(text: string): Record<string, RemoteLinks> {
  const parsed = JSON.parse(text) as { remotes?: unknown } | null;
  if (typeof parsed !== 'object' || parsed === null || (parsed.remotes !== undefined && (typeof parsed.remotes !== 'object' || parsed.remotes === null))) {
    throw new Error('not a links file (no remotes)');
  }
  return (parsed.remotes ?? {}) as Record<string, RemoteLinks>;
}

/** The links file of a data dir; writes are serialised and atomic. */
export class LinkFile implements LinkStore {
  private readonly file: string;
  private queue: Promise<void> = Promise.resolve();

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'sync-links.json');
  }

  /** Every remote's links; a damaged file is replaced by its previous version, or the links start afresh (the next sync then creates everything again). */
  private all(): Record<string, RemoteLinks> {
    return readStateFile(this.file, parseLinks, printProblem).value ?? {};
  }

  async read(remote: string): Promise<RemoteLinks> {
    await this.queue;
    return this.all()[remote] ?? { remote, last_sync_at: null, links: [] };
  }

  save(change: LinkChange): Promise<void> {
    const parsed = linkChangeSchema.parse(change);
    const next = this.queue.then(async () => {
      const all = this.all();
      all[parsed.remote] = changeLinks(all[parsed.remote] ?? { remote: parsed.remote, last_sync_at: null, links: [] }, parsed);
      await writeStateFile(this.file, `${JSON.stringify({ remotes: all }, null, 1)}\n`);
    });
    this.queue = next.catch(() => undefined);
    return next;
  }
}
