// The engine's stores, real and in a temp dir, for unit tests of its rooms: emission with a
// delivery port and a listener that record what they were given, and (on demand) deployed
// sources running in real component hosts (dist/host.cjs: build first).
import fs from 'node:fs';
import path from 'node:path';
import { ComponentLibrary } from '../../runtime/components/library';
import { Deduper } from '../../runtime/engine/events/dedupe';
import { type DeliveryPort, Emission } from '../../runtime/engine/events/emission';
import { NetworkService } from '../../runtime/engine/network/network-service';
import { createSources, type SourceManager } from '../../runtime/engine/sources/source-manager';
import { hostScript } from '../../runtime/lib/paths';
import { HostPool } from '../../runtime/sandbox/host-pool';
import { CassetteStore } from '../../runtime/store/cassette-store';
import { DataStores } from '../../runtime/store/data-stores';
import { EventStore, type StoredEvent } from '../../runtime/store/event-store';
import { InvocationStore } from '../../runtime/store/invocation-store';
import { LogStore } from '../../runtime/store/log-store';
import { type Metadata, openMetadata } from '../../runtime/store/metadata';
import { PayloadStore } from '../../runtime/store/payload-store';
import { SecretBox } from '../../runtime/store/secrets';
import { SourceDbs } from '../../runtime/store/source-dbs';
import { tempDir } from './service';

/** The engine's stores in one data dir, and what emission handed on. */
export interface EngineStores {
  dataDir: string;
  metadata: Metadata;
  secrets: SecretBox;
  events: EventStore;
  logs: LogStore;
  invocations: InvocationStore;
  dedupe: Deduper;
  dbs: SourceDbs;
  dataStores: DataStores;
  network: NetworkService;
  payloads: PayloadStore;
  emission: Emission;
  /** Each `deliver` call emission made, in order. */
  deliveries: Array<{ event: StoredEvent; webhooks: readonly string[] }>;
  /** Each listener run emission asked for, in order. */
  listened: Array<{ listenerId: string; event: StoredEvent; depth: number }>;
  /** Runs a listener (besides recording it); a test sets it to wire sources or workflows. */
  onListen: (listenerId: string, event: StoredEvent, depth: number) => void;
  close(): Promise<void>;
}

/** Opens the stores in a fresh data dir, wired as service.ts wires them. */
export async function openEngineStores(delivery?: DeliveryPort): Promise<EngineStores> {
  const dataDir = tempDir('spout-engine-');
  const metadata = await openMetadata(dataDir);
  const events = new EventStore(path.join(dataDir, 'events'), 1000);
  const logs = new LogStore(path.join(dataDir, 'logs'));
  const invocations = new InvocationStore(path.join(dataDir, 'invocations'), 1000);
  logs.subscribeAll((_sourceId, line) => invocations.collect(line));
  const dataStores = new DataStores(path.join(dataDir, 'data_stores'));
  await dataStores.open();
  const deliveries: EngineStores['deliveries'] = [];
  const listened: EngineStores['listened'] = [];
  const port: DeliveryPort = delivery ?? {
    deliver: async (event, webhooks) => void deliveries.push({ event, webhooks }),
    deliverUnrecorded: async () => 0,
  };
  const stores: EngineStores = {
    dataDir,
    metadata,
    secrets: SecretBox.open(dataDir),
    events,
    logs,
    invocations,
    dedupe: new Deduper(path.join(dataDir, 'dedupe')),
    dbs: new SourceDbs(path.join(dataDir, 'db')),
    dataStores,
    network: new NetworkService(new CassetteStore(path.join(dataDir, 'cassettes'))),
    payloads: new PayloadStore(path.join(dataDir, 'payloads')),
    emission: new Emission(
      events,
      port,
      () => metadata.data.subscriptions,
      (listenerId, event, depth) => {
        listened.push({ listenerId, event, depth });
        stores.onListen(listenerId, event, depth);
      },
    ),
    deliveries,
    listened,
    onListen: () => {},
    close: async () => {
      await stores.dedupe.flush();
      await stores.dbs.flush();
      await dataStores.close();
      await events.close();
      await invocations.close();
      await logs.close();
    },
  };
  return stores;
}

/** Deployed sources over the stores, in real component hosts; `stop()` ends them and closes the stores. */
export async function openSources(options: { runTimeoutMs?: number; delivery?: DeliveryPort } = {}): Promise<{ stores: EngineStores; sources: SourceManager; hosts: HostPool; stop(): Promise<void> }> {
  if (!fs.existsSync(hostScript)) throw new Error(`${hostScript} is missing: run node scripts/build.js first`);
  const stores = await openEngineStores(options.delivery);
  const hosts = new HostPool({ script: hostScript, baseRead: [], memoryMb: 256, spare: false });
  const sources = createSources({
    ...stores,
    library: new ComponentLibrary(stores.metadata),
    endpointUrl: (id) => `http://127.0.0.1:1/e/${id}`,
    limits: { hosts, timeoutMs: options.runTimeoutMs ?? 10_000, maxQueue: 100 },
  });
  stores.onListen = (listenerId, event, depth) => sources.listen(listenerId, event, depth);
  return {
    stores,
    sources,
    hosts,
    stop: async () => {
      await sources.stop();
      hosts.stop();
      await stores.close();
    },
  };
}

/** Every file under a folder, relative to it. */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}
