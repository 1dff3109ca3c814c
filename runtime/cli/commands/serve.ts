import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseDurationSeconds } from '../../delivery/worker/retry';
import { parseNpmRegistry, parseRetrySchedule } from '../../lib/config';
import { watchLauncher } from '../../lib/launcher-lifeline';
import { isLoopbackHost } from '../../lib/loopback';
import { type RunningService, startService } from '../../service';
import { UsageError } from '../support/usage';

export const SERVE_HELP = `Usage: spout serve [options]

Starts the Spout service: the runtime, the /v1 API, HTTP endpoints and the UI on one port.

Options:
  --port N             port to listen on (default 7620; 0 picks a free one)
  --host HOST          address to bind (default 127.0.0.1)
  --data-dir DIR       where state is kept (env SPOUT_DATA_DIR; default ~/.config/spout)
  --api-key KEY        API key (env SPOUT_API_KEY; default: generated once into DATA_DIR/api-key)
  --retry-schedule S   seconds between delivery attempts, e.g. 1,2,5 (env SPOUT_RETRY_SCHEDULE;
                       default 5,300,1800,7200,18000,36000,36000); a webhook may set its own
  --delivery-timeout S a webhook request not done within S seconds is a failed attempt
                       (default 15)
  --disable-after D    disable a webhook whose every delivery attempt failed for D (seconds, or
                       with a unit: 30m, 12h, 5d; default 5d; 0 never)
  --event-retention N  events kept per source (default 10000; fewer when they are large: they
                       keep to 64 MB, or 1 KB an event past 65536)
  --invocation-retention N
                       recorded runs (requests, answers, logs, errors) kept per source
                       (default 1000; fewer when they are large: they keep to 32 MB, or 1 KB a
                       run past 32768)
  --run-timeout S      a run of component code (a source's or an action's) not done within S
                       seconds is stopped, unless the source sets its own (default 60)
  --component-memory MB
                       resident memory (Buffers included) one component's host process may use
                       before it is stopped and restarted (env SPOUT_COMPONENT_MEMORY; default 512)
  --component-disk MB  bytes a source's own folders (its dir props' folder and its temp folder)
                       may hold, and the largest file a component may write, before its host is
                       stopped (env SPOUT_COMPONENT_DISK; default 2048)
  --host-idle S        stop a source's component host after S seconds without work; its next
                       request, timer or run starts it again (env SPOUT_HOST_IDLE; default 300)
  --warm-hosts N       most sources' hosts kept running; past it the least recently used idle
                       ones stop first (env SPOUT_WARM_HOSTS; default 8)
  --npm-registry URL   registry that packages imported by components are installed from, once,
                       into DATA_DIR/packages (env SPOUT_NPM_REGISTRY; default: npm's own config)
  --registry DIR       a folder laid out like Pipedream's components/ tree (<app>/sources/<name>/
                       <name>.mjs, <app>/actions/…) whose components are indexed by key beside the
                       bundled ones; repeatable (env SPOUT_REGISTRY, folders separated by "${path.delimiter}")
  -h, --help           show this help

The retry schedule, delivery timeout, disable-after time, retention, run timeout, host idle time
and warm hosts can also be changed in the UI's Settings (PATCH /v1/settings), saved in the data dir
and applied without a restart; a flag (or its environment variable) given here wins over the saved
value for this run.
`;

/** `spout serve`: runs the service until SIGINT/SIGTERM/SIGHUP, or until the `npm start` that launched it ends. */
export async function serve(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      'api-key': { type: 'string' },
      'retry-schedule': { type: 'string' },
      'delivery-timeout': { type: 'string' },
      'disable-after': { type: 'string' },
      'event-retention': { type: 'string' },
      'invocation-retention': { type: 'string' },
      'run-timeout': { type: 'string' },
      'component-memory': { type: 'string' },
      'component-disk': { type: 'string' },
      'host-idle': { type: 'string' },
      'warm-hosts': { type: 'string' },
      'npm-registry': { type: 'string' },
      registry: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(SERVE_HELP);
    return;
  }
  const port = values.port === undefined ? 7620 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port: "${values.port}" is not a port number (0-65535)`);
  const host = values.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) {
    process.stderr.write(`warning: --host ${host} exposes the service beyond this machine; anyone who can reach it and has the API key controls it\n`);
  }
  const scheduleText = values['retry-schedule'] ?? process.env.SPOUT_RETRY_SCHEDULE;
  let retrySchedule: number[] | undefined;
  try {
    retrySchedule = scheduleText === undefined ? undefined : parseRetrySchedule(scheduleText);
  } catch (err) {
    throw new UsageError(`--retry-schedule: ${(err as Error).message}`);
  }

  let deliveryTimeoutMs: number | undefined;
  if (values['delivery-timeout'] !== undefined) {
    const seconds = Number(values['delivery-timeout']);
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) {
      throw new UsageError(`--delivery-timeout: "${values['delivery-timeout']}" is not a number of seconds between 0 and 3600, e.g. 15 or 0.5`);
    }
    deliveryTimeoutMs = Math.round(seconds * 1000);
  }
  let disableAfterMs: number | undefined;
  if (values['disable-after'] !== undefined) {
    try {
      disableAfterMs = Math.round(parseDurationSeconds(values['disable-after']) * 1000);
    } catch (err) {
      throw new UsageError(`--disable-after: ${(err as Error).message}`);
    }
  }

  const registryText = values['npm-registry'] ?? process.env.SPOUT_NPM_REGISTRY;
  let npmRegistry: string | undefined;
  try {
    npmRegistry = registryText === undefined || registryText === '' ? undefined : parseNpmRegistry(registryText);
  } catch (err) {
    throw new UsageError(`--npm-registry: ${(err as Error).message}`);
  }

  const retention = values['event-retention'] === undefined ? undefined : Number(values['event-retention']);
  if (retention !== undefined && (!Number.isInteger(retention) || retention < 1)) {
    throw new UsageError(`--event-retention: "${values['event-retention']}" is not a positive whole number`);
  }

  const invocationRetention = values['invocation-retention'] === undefined ? undefined : Number(values['invocation-retention']);
  if (invocationRetention !== undefined && (!Number.isInteger(invocationRetention) || invocationRetention < 1)) {
    throw new UsageError(`--invocation-retention: "${values['invocation-retention']}" is not a positive whole number`);
  }

  let runTimeoutMs: number | undefined;
  if (values['run-timeout'] !== undefined) {
    const seconds = Number(values['run-timeout']);
    if (!Number.isFinite(seconds) || seconds < 1 || seconds > 3600) throw new UsageError(`--run-timeout: "${values['run-timeout']}" is not a number of seconds from 1 to 3600`);
    runTimeoutMs = Math.round(seconds * 1000);
  }

  const memoryText = values['component-memory'] ?? process.env.SPOUT_COMPONENT_MEMORY;
  const componentMemoryMb = memoryText === undefined ? undefined : Number(memoryText);
  if (componentMemoryMb !== undefined && (!Number.isInteger(componentMemoryMb) || componentMemoryMb < 64)) {
    throw new UsageError(`--component-memory: "${memoryText}" is not a whole number of megabytes of at least 64 (a component host needs about 45 MB to start)`);
  }

  const diskText = values['component-disk'] ?? process.env.SPOUT_COMPONENT_DISK;
  const componentDiskMb = diskText === undefined ? undefined : Number(diskText);
  if (componentDiskMb !== undefined && (!Number.isInteger(componentDiskMb) || componentDiskMb < 1)) {
    throw new UsageError(`--component-disk: "${diskText}" is not a whole number of megabytes of at least 1`);
  }

  const hostIdleSeconds = wholeNumber('--host-idle', values['host-idle'] ?? process.env.SPOUT_HOST_IDLE, 1, 'seconds');
  const warmHosts = wholeNumber('--warm-hosts', values['warm-hosts'] ?? process.env.SPOUT_WARM_HOSTS, 1, 'hosts');
  const registryDirs = registryFolders(values.registry);

  // Signal handlers go in before the ready line: whoever reads it may signal at once.
  let service: RunningService | null = null;
  let signals = 0;
  const shutdown = (reason: string) => {
    if (++signals > 1 || !service) process.exit(130); // a second Ctrl-C, or nothing started yet: do not wait
    process.stderr.write(`${reason}: stopping…\n`);
    service.stop().then(
      () => process.exit(0),
      (err: Error) => {
        process.stderr.write(`stopping failed: ${err.message}\n`);
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, shutdown);
  watchLauncher(() => shutdown('the launcher ended'));

  service = await startService({
    port,
    host,
    dataDir: values['data-dir'],
    apiKey: values['api-key'],
    retrySchedule,
    deliveryTimeoutMs,
    disableAfterMs,
    eventRetention: retention,
    invocationRetention,
    runTimeoutMs,
    componentMemoryMb,
    componentDiskMb,
    hostIdleSeconds,
    warmHosts,
    npmRegistry,
    registryDirs,
    // Installs can take a while; the terminal shows they are under way.
    onPackageProgress: (line) => process.stderr.write(`packages: ${line}\n`),
  }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EADDRINUSE') throw err;
    // `npm start` passes its own arguments on after `--`; say it the way this service was started.
    const run = process.env.SPOUT_LAUNCHER ?? 'spout serve';
    throw new Error(`${err.message}; choose another with ${run} --port N, or ${run} --port 0 for a free one`);
  });
  process.stdout.write(`Spout listening on ${service.url}\nUI: ${service.signInUrl()}\n`);
}

/** An option's whole number of at least `min`, or undefined when not given. */
function wholeNumber(option: string, text: string | undefined, min: number, unit: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`${option}: "${text}" is not a whole number of ${unit} of at least ${min}`);
  return n;
}

/** `--registry` folders, else those of `SPOUT_REGISTRY` (or `SPOUT_REGISTRY_DIRS`); each must be a folder. */
function registryFolders(given: string[] | undefined): string[] {
  const envName = process.env.SPOUT_REGISTRY !== undefined ? 'SPOUT_REGISTRY' : 'SPOUT_REGISTRY_DIRS';
  const fromEnv = process.env[envName];
  const dirs = given?.length ? given : (fromEnv ?? '').split(path.delimiter).filter(Boolean);
  for (const dir of dirs) {
    let ok = false;
    try {
      ok = fs.statSync(dir).isDirectory();
    } catch {
      // missing
    }
    if (!ok) throw new UsageError(`${given?.length ? '--registry' : envName}: "${dir}" is not a folder; give a folder laid out like Pipedream's components/ tree`);
  }
  return dirs.map((d) => path.resolve(d));
}
