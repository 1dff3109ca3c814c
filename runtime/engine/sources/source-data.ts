// One source's data in every store: opened together when it is deployed or first used after a start
// (the others in the background, so a start reads no source's files before it answers), removed
// together when it is deleted or its deploy fails. A store added for sources is added here.
import fs from 'node:fs/promises';
import type { Cassette } from '../../contract/network-api';
import { KeyedOpening } from '../../lib/keyed-opening';
import { dirsRoot } from '../../props/dir/dir-folders';
import type { EventStore } from '../../store/event-store';
import type { InvocationStore } from '../../store/invocation-store';
import type { LogStore } from '../../store/log-store';
import type { PayloadStore } from '../../store/payload-store';
import type { SourceDbs } from '../../store/source-dbs';
import type { Deduper } from '../events/dedupe';
import type { NetworkService } from '../network/network-service';

/** The stores that keep something per source. */
export interface SourceStores {
  events: EventStore;
  invocations: InvocationStore;
  logs: LogStore;
  /** Its cassette and replay position. */
  network: NetworkService;
  /** Its `$.service.db`. */
  dbs: SourceDbs;
  dedupe: Deduper;
  /** Its saved test payloads (run now). */
  payloads: PayloadStore;
  /** The data dir, under which its `dir` props' folders are. */
  dataDir: string;
}

/** Opens and removes one source's data in every store. */
export class SourceData {
  private readonly opening = new KeyedOpening((sourceId) => this.openStores(sourceId));

  constructor(private readonly stores: SourceStores) {}

  /** Opens a source's events, runs and logs; a cassette given at deploy is held with them, so hooks can replay too (saved once masked: SourceCalls.maskHandWritten). */
  async open(sourceId: string, cassette?: Cassette): Promise<void> {
    await this.opening.ready(sourceId);
    if (cassette) this.stores.network.cassettes.hold(sourceId, cassette);
  }

  /** Resolves once a source's stores are open, opening them now if nothing has yet. */
  ready(sourceId: string): Promise<void> {
    return this.opening.ready(sourceId);
  }

  /** What to wait on before a source's stores are used: null once they are open (see KeyedOpening.pending). */
  pending(sourceId: string): Promise<void> | null {
    return this.opening.pending(sourceId);
  }

  /** Opens the stores of sources nobody has asked for yet, one at a time, in the background. */
  openLater(sourceIds: readonly string[]): void {
    this.opening.inBackground(sourceIds, (sourceId, err) => console.error(`spout: opening the events, runs and logs of ${sourceId} failed: ${err.message}`));
  }

  /** Resolves once the background opening has opened every source's stores. */
  allOpen(): Promise<void> {
    return this.opening.settled();
  }

  /** Stops opening in the background; resolves once no opening is under way, so the stores can close. */
  stopOpening(): Promise<void> {
    return this.opening.stop();
  }

  /** Removes everything kept for a source. */
  async remove(sourceId: string): Promise<void> {
    const { events, invocations, logs, network, dbs, dedupe, payloads, dataDir } = this.stores;
    // An opening under way finishes first, so that it cannot open the files again once removed.
    if (this.opening.started(sourceId)) await this.opening.ready(sourceId).catch(() => undefined);
    this.opening.forget(sourceId);
    await events.removeSource(sourceId);
    await logs.remove(sourceId);
    await invocations.remove(sourceId);
    await network.remove(sourceId);
    await dbs.remove(sourceId);
    await dedupe.remove(sourceId);
    await payloads.remove(sourceId);
    await fs.rm(dirsRoot(dataDir, sourceId), { recursive: true, force: true });
  }

  private async openStores(sourceId: string): Promise<void> {
    const { events, invocations, logs } = this.stores;
    await events.openSource(sourceId);
    await invocations.open(sourceId);
    await logs.open(sourceId);
  }
}
