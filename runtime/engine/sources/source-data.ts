// One source's data in every store: opened together when it is deployed (or the service starts),
// removed together when it is deleted or its deploy fails. A store added for sources is added here.
import fs from 'node:fs/promises';
import type { Cassette } from '../../contract/network-api';
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
  constructor(private readonly stores: SourceStores) {}

  /** Opens a source's events, runs and logs; a cassette given at deploy is saved with them, so hooks can replay too. */
  async open(sourceId: string, cassette?: Cassette): Promise<void> {
    const { events, invocations, logs, network } = this.stores;
    await events.openSource(sourceId);
    await invocations.open(sourceId);
    await logs.open(sourceId);
    if (cassette) await network.cassettes.put(sourceId, cassette);
  }

  /** Removes everything kept for a source. */
  async remove(sourceId: string): Promise<void> {
    const { events, invocations, logs, network, dbs, dedupe, payloads, dataDir } = this.stores;
    await events.removeSource(sourceId);
    await logs.remove(sourceId);
    await invocations.remove(sourceId);
    await network.remove(sourceId);
    await dbs.remove(sourceId);
    await dedupe.remove(sourceId);
    await payloads.remove(sourceId);
    await fs.rm(dirsRoot(dataDir, sourceId), { recursive: true, force: true });
  }
}
