import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ComponentLibrary, type SandboxFactory } from './components/library';
import { PackageCache } from './components/packages';
import { platformReadPaths } from './components/platform-packages';
import { ComponentRegistry } from './components/registry';
import { DEFAULT_COMPONENT_MEMORY_MB } from './contract/limits';
import { DeliveryService } from './delivery/delivery-service';
import { disableWebhook, webhookTarget } from './delivery/webhook-targets';
import { ConnectService } from './engine/connect/connect-service';
import { HttpEndpoints } from './engine/endpoints/http-endpoints';
import { Deduper } from './engine/events/dedupe';
import { Emission } from './engine/events/emission';
import { NetworkService } from './engine/network/network-service';
import { ComponentSessions } from './engine/sessions/component-sessions';
import { SendLog } from './engine/sessions/send-log';
import { createSources } from './engine/sources/source-manager';
import { createStream } from './engine/stream/stream-wiring';
import { ToolCatalog } from './engine/tools/tool-catalog';
import { WorkflowManager } from './engine/workflows/workflow-manager';
import type { ApiContext } from './http/api/api-context';
import { createApp } from './http/app';
import type { AuthConfig } from './http/edge/auth';
import { problemBody } from './http/edge/error-statuses';
import { answerProtocolErrors } from './http/edge/protocol-errors';
import { SignInTokens, signInLink } from './http/edge/sign-in-tokens';
import { StartupGate } from './http/edge/startup-gate';
import { type StoreOpenings, storeWait } from './http/edge/store-wait';
import { ENDPOINT_PREFIX, endpointHandler } from './http/ingress/endpoint-handler';
import { RunNowRequests } from './http/ingress/run-now-requests';
import { McpEndpoint } from './http/mcp/mcp-endpoint';
import { resolveApiKey, resolveDataDir } from './lib/config';
import { describeProblem, type FileProblem, ProblemLog, type ProblemSink } from './lib/file-problems';
import { isLoopbackHost } from './lib/loopback';
import { bundledRegistryDir, cliScript, hostScript } from './lib/paths';
import { writePrivateFileSync } from './lib/private-files';
import { HostParking } from './sandbox/host-parking';
import { HostPool } from './sandbox/host-pool';
import { Sandbox } from './sandbox/sandbox';
import { sweepTempFolders } from './sandbox/temp-folder';
import { CassetteStore } from './store/cassette-store';
import { DataStores } from './store/data-stores';
import { EventStore } from './store/event-store';
import { InvocationStore } from './store/invocation-store';
import { LogStore } from './store/log-store';
import { McpSettingsStore } from './store/mcp-settings';
import { openMetadata } from './store/metadata';
import { PayloadStore } from './store/payload-store';
import { SavedFilterStore } from './store/saved-filters';
import { type KeyWrapper, SecretBox } from './store/secrets';
import { ServiceSettings, type SettingOptions } from './store/service-settings';
import { SourceDbs } from './store/source-dbs';
import { RunLog } from './store/workflow-run-log';

/** Options of the service; those of SettingOptions (retries, retention, run timeout, parking) win over the saved settings when given. */
export interface ServiceOptions extends SettingOptions {
  /** 0 picks a free port. Default 7620. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  dataDir?: string;
  apiKey?: string;
  /** Resident memory limit of one component host, MB. Default 512. */
  componentMemoryMb?: number;
  /** Limit of a source's own folders (its `dir` props' folder and its temp folder), MB. Default 2048. */
  componentDiskMb?: number;
  /** npm registry that packages imported by components come from. Default: npm's own config. */
  npmRegistry?: string;
  /** Receives progress lines of every package install (`installing x@^1 …`). */
  onPackageProgress?: (line: string) => void;
  /** Folders laid out like Pipedream's `components/` tree, indexed by key after the bundled components (a later folder's key wins). */
  registryDirs?: string[];
  /** Seals the secret-encryption key outside the data dir (the desktop app: the OS keychain). */
  secretKeyWrapper?: KeyWrapper;
  /** Node binary component hosts run with; default this process's (the desktop app gives the system's, its own cannot run as Node). */
  nodePath?: string;
  /** Lifetime of Connect OAuth access tokens, seconds (env SPOUT_CONNECT_TOKEN_TTL); default an hour. */
  connectTokenTtlSeconds?: number;
}

/**
 * SIGUSR1 opens Node's debugger in a running process, through which anything could run code in
 * the service; a listener turns that off (start the service with --inspect to debug it).
 */
function ignoreDebugSignal(): void {
  console.error('SIGUSR1 ignored: start Spout with node --inspect to debug it');
}

/** Largest request body an HTTP interface endpoint accepts. */
const HTTP_BODY_LIMIT = 5 * 1024 * 1024;

/** A running Spout service. */
export interface RunningService {
  /** `http://HOST:PORT` */
  url: string;
  /** A new UI sign-in link: the UI address with a one-time `?token=` (never the API key) that signs one browser in. */
  signInUrl(): string;
  apiKey: string;
  dataDir: string;
  /** What the start found damaged in the data dir (and set aside): each file and line, and what was done. */
  problems: readonly FileProblem[];
  /** Stops accepting requests, finishes what is under way, and closes the stores. */
  stop(): Promise<void>;
}

/** Answers a request whose stores could not be opened (the reason was printed as it was found). */
function storesUnavailable(res: http.ServerResponse, err: Error): void {
  if (res.headersSent) return;
  res.writeHead(503, { 'content-type': 'application/problem+json' });
  res.end(problemBody(503, `the stored events, runs or logs this request reads could not be opened (${err.message}); \`spout doctor\` checks the data dir`));
}

/** Starts the runtime, the /v1 API, HTTP endpoints and the UI on one port. */
export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const host = options.host ?? '127.0.0.1';
  process.on('SIGUSR1', ignoreDebugSignal);
  const dataDir = resolveDataDir(options.dataDir);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const apiKey = resolveApiKey(dataDir, options.apiKey);
  const secrets = SecretBox.open(dataDir, options.secretKeyWrapper);
  // Damaged files never stop a start: what is found is set aside, printed as found, and summed up once started.
  const problems = new ProblemLog();
  const report: ProblemSink = (problem) => {
    problems.sink(problem);
    console.error(`spout: ${describeProblem(problem, dataDir)}`);
  };
  const metadata = await openMetadata(dataDir, report);
  const dataStores = new DataStores(path.join(dataDir, 'data_stores'), { report });
  await dataStores.open();

  // Secrets are opened once each, not every time the webhook table goes to the delivery thread.
  const opened = new Map<string, string>();
  const openSecret = (sealed: string) => {
    let secret = opened.get(sealed);
    if (secret === undefined) opened.set(sealed, (secret = secrets.open(sealed)));
    return secret;
  };

  let port = options.port ?? 7620;
  const wildcard = host === '0.0.0.0' || host === '::';
  const displayHost = wildcard ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const baseUrl = () => `http://${displayHost}:${port}`;
  const endpointUrl = (id: string) => `${baseUrl()}/e/${id}`;

  // Options given at start (flags) win over the settings saved from the UI, which win over the defaults.
  const saved = ServiceSettings.open(dataDir, options, report);
  const set = saved.current();
  const events = new EventStore(path.join(dataDir, 'events'), set.event_retention, report);
  const logs = new LogStore(path.join(dataDir, 'logs'), report);
  const invocations = new InvocationStore(path.join(dataDir, 'invocations'), set.invocation_retention, report);
  // A line written during a run goes into that run's record too.
  logs.subscribeAll((_sourceId, line) => invocations.collect(line));
  // The delivery thread replays its outbox while the rest starts: /v1 answers at once, and what
  // needs the thread (deliveries, message lists, health) waits for it.
  const { service: delivery, ready: startingDelivery } = DeliveryService.start({
    dataDir,
    ...saved.deliveryRules(),
    webhooks: () => metadata.data.webhooks.map((w) => webhookTarget(w, openSecret, (id) => metadata.data.connect.projects.some((p) => p.id === id && p.allow_local_targets === true))),
    servicePort: () => port,
    onDisable: (id, reason) => disableWebhook(metadata, id, reason),
    report,
  });
  // A thread that fails is reported by the delivery service, and started again.
  const deliveryReady = startingDelivery.catch(() => undefined);
  // Emission runs the sources and workflows subscribed to an event: both are built below, after it.
  const emission = new Emission(
    events,
    delivery,
    () => metadata.data.subscriptions,
    (listenerId, event, depth) => {
      if (listenerId.startsWith('dc_')) sources.listen(listenerId, event, depth);
      else if (listenerId.startsWith('p_')) workflows.listen(listenerId, event, depth);
    },
  );
  const packages = new PackageCache({ dir: path.join(dataDir, 'packages'), registry: options.npmRegistry, onProgress: options.onPackageProgress });
  const library = new ComponentLibrary(metadata, packages);
  const dbs = new SourceDbs(path.join(dataDir, 'db'), report);
  const network = new NetworkService(new CassetteStore(path.join(dataDir, 'cassettes'), report));
  const dedupe = new Deduper(path.join(dataDir, 'dedupe'), report);
  const payloads = new PayloadStore(path.join(dataDir, 'payloads'), report);
  // Component code runs in host processes that may read the package cache and nothing else of the
  // data dir. Node's permission model grants only folders that exist when a host starts, and the
  // spare host starts at once: the cache folder must exist before any host does.
  packages.ensureDir();
  // Temp folders of configuration sessions of an earlier run are left over.
  await sweepTempFolders(dataDir, new Set(metadata.data.sources.map((s) => s.id)));
  const hosts = new HostPool({
    script: hostScript,
    baseRead: [packages.dir, ...platformReadPaths()],
    memoryMb: options.componentMemoryMb ?? DEFAULT_COMPONENT_MEMORY_MB,
    diskMb: options.componentDiskMb,
    dataDir,
    execPath: options.nodePath,
  });
  const limits = { hosts, timeoutMs: set.run_timeout_seconds * 1000, maxQueue: 1000 };
  const parking = new HostParking(saved.parkingRules());
  // Saving a component (no source yet) loads it only to learn what it declares.
  const describeSandbox: SandboxFactory = (bundle) => Sandbox.load({ ...bundle, ...limits, label: bundle.filename, onLog: () => {}, onStrayEmits: () => {} });
  const registry = new ComponentRegistry({
    folders: [{ dir: bundledRegistryDir, bundled: true }, ...(options.registryDirs ?? []).map((dir) => ({ dir: path.resolve(dir), bundled: false }))],
    library,
    spawn: describeSandbox,
    cacheFile: path.join(dataDir, 'registry-cache.json'),
  });
  const sources = createSources({
    metadata,
    library,
    secrets,
    events,
    emission,
    logs,
    endpointUrl,
    // Sources' hosts park when idle; configuration sessions' end with their session.
    limits: { ...limits, parking },
    dbs,
    dataDir,
    dedupe,
    dataStores,
    invocations,
    network,
    payloads,
  });
  // A change made in the UI applies at once to the part that uses it (none waits for a restart).
  saved.onChange((changed) => {
    const now = saved.current();
    if ('retry_schedule' in changed || 'delivery_timeout_seconds' in changed || 'disable_after_seconds' in changed) delivery.setRules(saved.deliveryRules());
    if ('event_retention' in changed) events.setRetention(now.event_retention);
    if ('invocation_retention' in changed) invocations.setRetention(now.invocation_retention);
    if ('run_timeout_seconds' in changed) {
      limits.timeoutMs = now.run_timeout_seconds * 1000;
      sources.setRunTimeout(limits.timeoutMs);
    }
    if ('host_idle_seconds' in changed || 'warm_hosts' in changed) parking.setRules(saved.parkingRules());
  });
  const sendLog = new SendLog();
  const sessions = new ComponentSessions({ metadata, secrets, limits, idleMs: 60_000, dataStores, sendLog, invocations, network, dataDir });
  const runs = new RunLog(path.join(dataDir, 'workflow-runs'), report);
  const workflows = new WorkflowManager({ metadata, library, sessions, emission, events, runs, secrets, describeSandbox });

  const allowedHosts = new Set(['127.0.0.1', 'localhost', '[::1]', displayHost.toLowerCase()]);
  if (wildcard) {
    // Bound to every interface: this machine's own addresses are its names, nothing else is.
    for (const addrs of Object.values(os.networkInterfaces())) {
      for (const a of addrs ?? []) allowedHosts.add(a.family === 'IPv6' ? `[${a.address.toLowerCase()}]` : a.address);
    }
  } else if (!isLoopbackHost(host)) allowedHosts.add(host.toLowerCase());
  const auth: AuthConfig = { apiKey, allowedHosts, port: () => port, signIn: new SignInTokens() };
  const settings = () => ({
    url: baseUrl(),
    data_dir: dataDir,
    api_key_source: options.apiKey ? ('option' as const) : process.env.SPOUT_API_KEY ? ('env' as const) : ('data_dir' as const),
    ...saved.current(),
    editable: saved.states(),
    component_memory_mb: hosts.memoryMb,
    npm_registry: options.npmRegistry ?? null,
    registry_dirs: (options.registryDirs ?? []).map((d) => path.resolve(d)),
  });
  const connectTtl = options.connectTokenTtlSeconds ?? (Number(process.env.SPOUT_CONNECT_TOKEN_TTL) || undefined);
  const connect = new ConnectService({ metadata, secrets, registry, accessTokenSeconds: connectTtl });
  const mcpSettings = McpSettingsStore.open(dataDir, report);
  const catalog = new ToolCatalog({ metadata, library, registry, settings: mcpSettings });
  // `spout mcp` finds this service through the data dir; a key given by flag or environment is not kept there.
  const stdio = { command: options.nodePath ?? process.execPath, args: [cliScript, 'mcp', '--data-dir', dataDir], ...(settings().api_key_source === 'data_dir' ? {} : { env: { SPOUT_API_KEY: '<API key>' } }) };
  const runNow = new RunNowRequests();
  const stream = createStream({ invocations, events, runs, sources, library, workflows, delivery, metadata });
  const savedFilters = SavedFilterStore.open(dataDir, report);
  const ctx: ApiContext = {
    connect,
    metadata,
    library,
    registry,
    describeSandbox,
    sources,
    sessions,
    workflows,
    sendLog,
    events,
    logs,
    invocations,
    network,
    delivery,
    secrets,
    dataStores,
    auth,
    endpointUrl,
    settings,
    savedSettings: saved,
    mcp: { settings: mcpSettings, catalog, stdio },
    payloads,
    runNow,
    stream,
    savedFilters,
  };
  const mcp = new McpEndpoint(ctx);
  const app = createApp(ctx, mcp);
  const endpoints = endpointHandler(new HttpEndpoints(sources, workflows), HTTP_BODY_LIMIT, endpointUrl, runNow);
  const gate = new StartupGate();
  // Runs of action components (and sources' files left without a source) open after the sources'.
  let othersOpen: Promise<void> | null = null;
  let stopping: Promise<void> | null = null;
  const openings: StoreOpenings = {
    sourceId: (idOrSlug) => sources.find(idOrSlug)?.id,
    endpointSourceId: (endpointId) => sources.byEndpoint(endpointId)?.source.id,
    ready: (sourceId) => sources.storesReady(sourceId),
    allReady: () => (othersOpen ??= sources.allStoresReady().then(() => (stopping ? undefined : invocations.openAll()))),
  };
  const serve = (req: http.IncomingMessage, res: http.ServerResponse) => (req.url?.startsWith(ENDPOINT_PREFIX) ? void endpoints(req, res) : app(req, res));
  // A request without Host is answered by the Host check, as problem+json.
  const server = http.createServer({ requireHostHeader: false }, (req, res) =>
    gate.pass(res, () => {
      const waiting = storeWait(req.url ?? '/', openings);
      if (!waiting) return serve(req, res);
      waiting.then(
        () => serve(req, res),
        (err: Error) => storesUnavailable(res, err),
      );
    }),
  );
  server.keepAliveTimeout = 65_000;
  answerProtocolErrors(server);

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        port = (server.address() as AddressInfo).port;
        // The delivery thread checks each connection against the port now known.
        delivery.syncWebhooks();
        resolve();
      });
    });
  } catch (err) {
    await delivery.stop();
    await dataStores.close();
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') {
      // The caller says how to choose another port (`spout serve --port`, `npm start -- --port`).
      throw Object.assign(new Error(`port ${port} on ${host} is in use (another Spout? see ${path.join(dataDir, 'server.json')})`), { code: 'EADDRINUSE' });
    }
    throw err;
  }
  // Sources load after the port is known: their endpoint URLs include it. No host starts: each
  // starts with its source's first work, and no store is read: each opens on first use (docs/runtime.md).
  sources.loadAll();
  await workflows.loadAll();
  gate.open();
  // What the start found damaged is summed up once every store has been read (the outbox too).
  void Promise.all([openings.allReady(), deliveryReady]).then(
    () => {
      if (problems.count > 0) console.error(`spout: the start found ${problems.count} damaged part(s) of the data dir ${dataDir}, listed above; each was set aside beside its file (*.damaged) and everything else was loaded. \`spout doctor\` checks the data dir again.`);
    },
    (err: Error) => console.error(`spout: opening the stored runs failed: ${err.message}`),
  );

  const serverFile = path.join(dataDir, 'server.json');
  writePrivateFileSync(serverFile, `${JSON.stringify({ url: baseUrl(), pid: process.pid })}\n`);

  const stop = () =>
    (stopping ??= (async () => {
      server.closeIdleConnections();
      // MCP sessions hold streams open and listen to the stores: they end first.
      await mcp.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Long-lived streams (SSE) would hold close() open forever.
      setTimeout(() => server.closeAllConnections(), 2000).unref();
      parking.stop();
      await Promise.all([sources.stop(), sessions.stop(), workflows.stop()]);
      await othersOpen?.catch(() => undefined);
      hosts.stop();
      await dbs.flush();
      process.off('SIGUSR1', ignoreDebugSignal);
      await runs.close();
      // After the sources: their runs may still be writing to data stores.
      await dataStores.close();
      await dedupe.flush();
      await delivery.stop();
      await events.close();
      await invocations.close();
      await logs.close();
      await closed;
      try {
        const kept = JSON.parse(fs.readFileSync(serverFile, 'utf8')) as { pid?: number };
        if (kept.pid === process.pid) fs.rmSync(serverFile);
      } catch {
        // already gone
      }
    })());

  return { url: baseUrl(), signInUrl: () => signInLink(baseUrl(), auth.signIn.issue().token), apiKey, dataDir, problems: problems.problems, stop };
}
