import { parseArgs } from 'node:util';
import { isLoopbackHost, parseNpmRegistry, parseRetrySchedule } from '../config';
import { startService, type RunningService } from '../service';
import { UsageError } from './usage';

export const SERVE_HELP = `Usage: spout serve [options]

Starts the Spout service: the runtime, the /v1 API, HTTP endpoints and the UI on one port.

Options:
  --port N             port to listen on (default 7620; 0 picks a free one)
  --host HOST          address to bind (default 127.0.0.1)
  --data-dir DIR       where state is kept (env SPOUT_DATA_DIR; default ~/.config/spout)
  --api-key KEY        API key (env SPOUT_API_KEY; default: generated once into DATA_DIR/api-key)
  --retry-schedule S   seconds between delivery attempts, e.g. 1,2,5 (env SPOUT_RETRY_SCHEDULE)
  --event-retention N  events kept per source (default 10000)
  --npm-registry URL   registry that packages imported by components are installed from, once,
                       into DATA_DIR/packages (env SPOUT_NPM_REGISTRY; default: npm's own config)
  -h, --help           show this help
`;

/** `spout serve`: runs the service until SIGINT/SIGTERM. */
export async function serve(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      'api-key': { type: 'string' },
      'retry-schedule': { type: 'string' },
      'event-retention': { type: 'string' },
      'npm-registry': { type: 'string' },
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

  // Signal handlers go in before the ready line: whoever reads it may signal at once.
  let service: RunningService | null = null;
  let signals = 0;
  const shutdown = (signal: NodeJS.Signals) => {
    if (++signals > 1 || !service) process.exit(130); // a second Ctrl-C, or nothing started yet: do not wait
    process.stderr.write(`${signal}: stopping…\n`);
    service.stop().then(
      () => process.exit(0),
      (err: Error) => {
        process.stderr.write(`stopping failed: ${err.message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);

  service = await startService({
    port,
    host,
    dataDir: values['data-dir'],
    apiKey: values['api-key'],
    retrySchedule,
    eventRetention: retention,
    npmRegistry,
    // Installs can take a while; the terminal shows they are under way.
    onPackageProgress: (line) => process.stderr.write(`packages: ${line}\n`),
  });
  process.stdout.write(`Spout listening on ${service.url}\nUI: ${service.uiUrl}\n`);
}
