import { errorText } from '../remote/api-client';
import { GLOBAL_HELP, splitCommand } from './support/args';
import { nearest, UsageError } from './support/usage';

/** A command: its module is loaded only when it runs (the CLI starts fast; `serve` loads the runtime). */
interface Command {
  summary: string;
  load: () => Promise<{ run: (argv: string[]) => Promise<void>; HELP: string }>;
}

const COMMANDS: Record<string, Command> = {
  serve: { summary: 'start the Spout service (API, endpoints, UI)', load: async () => import('./commands/serve').then((m) => ({ run: m.serve, HELP: m.SERVE_HELP })) },
  ui: { summary: 'print a new one-time link that signs a browser in to the UI', load: () => import('./commands/ui') },
  dev: { summary: 'deploy a file and redeploy it on every save, streaming logs and events', load: () => import('./commands/dev') },
  deploy: { summary: 'deploy a source from a file, a registry key or a URL', load: () => import('./commands/deploy') },
  update: { summary: "change a source's code, name, props or active state", load: () => import('./commands/update') },
  delete: { summary: 'delete a source', load: () => import('./commands/delete') },
  list: { summary: 'list sources, components, webhooks or subscriptions', load: () => import('./commands/list') },
  describe: { summary: 'show a source: endpoint, timers, props', load: () => import('./commands/describe') },
  logs: { summary: "show (and follow) a source's logs", load: () => import('./commands/logs') },
  events: { summary: "show (and follow) a source's latest events", load: () => import('./commands/events') },
  stream: { summary: 'show (and follow) runs and events of every source, action and workflow, filtered', load: () => import('./commands/stream') },
  invocations: { summary: "show (and follow) a source's recorded runs: requests, answers, errors", load: () => import('./commands/invocations') },
  cassette: { summary: "export or import a source's recorded outgoing calls (NAME.cassette.json)", load: () => import('./commands/cassette') },
  replay: { summary: 'run a recorded invocation again (optionally edited)', load: () => import('./commands/replay') },
  run: { summary: 'run a source now', load: () => import('./commands/run-source') },
  send: { summary: "send a request (--sample: the component's sample event) to a source's endpoint", load: async () => import('./commands/run-source').then((m) => ({ run: (argv: string[]) => m.run([...argv, '--http']), HELP: m.HELP })) },
  'run-action': { summary: 'run an action once (a test run) and print its exports and return value', load: () => import('./commands/run-action') },
  workflows: { summary: 'list, run, replay, export, import or delete workflows', load: () => import('./commands/workflows') },
  test: { summary: 'run component tests (*.test.mjs|js|ts) offline, in parallel; --watch reruns on change', load: () => import('./commands/test') },
  lint: { summary: 'check a component file: errors, and warnings (--strict fails on them)', load: () => import('./commands/lint') },
  publish: { summary: 'save a component (an action) for use by key', load: () => import('./commands/publish') },
  init: { summary: 'write a starter source, action or app file', load: () => import('./commands/init') },
  webhooks: { summary: 'create, list or delete webhooks; list, resend, retry, pause and resume their deliveries', load: () => import('./commands/webhooks') },
  subscriptions: { summary: 'subscribe webhooks (or sources) to sources', load: () => import('./commands/subscriptions') },
  mcp: { summary: 'serve the MCP server on stdio: saved actions as tools for AI agents (--config prints client set-up)', load: () => import('./commands/mcp') },
  login: { summary: 'save the URL and API key of a service (or Pipedream) as a profile', load: () => import('./commands/login') },
  connect: { summary: 'print the Pipedream Connect credentials @pipedream/sdk uses against this service', load: () => import('./commands/connect') },
  sync: { summary: 'plan, push and pull sources, webhooks, workflows… to or from another instance or Pipedream', load: () => import('./commands/sync') },
  doctor: { summary: 'check a data dir file by file and line by line (--repair mends what it finds)', load: () => import('./commands/doctor') },
};

const HELP = `Usage: spout <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(14)}${c.summary}`)
  .join('\n')}

SRC (a source) is its id (dc_…), its name slug, the key it was deployed by, or a unique prefix.
Without --api-url, -p or a saved default profile, commands talk to the local service (found
through DATA_DIR/server.json and DATA_DIR/api-key). Exit status: 0 success, 1 failure, 2 bad usage.

${GLOBAL_HELP}  -V, --version      print the version
Run "spout <command> --help" for a command's options.
`;

/** Entry of the `spout` command. */
async function main(argv: string[]): Promise<void> {
  const { command, rest } = splitCommand(argv);
  if (command === undefined && (argv.includes('--version') || argv.includes('-V'))) {
    process.stdout.write(`spout ${process.env.SPOUT_VERSION ?? 'dev'}\n`);
    return;
  }
  if (command === undefined || command === 'help') {
    const topic = command === 'help' ? splitCommand(rest).command : undefined;
    if (topic && COMMANDS[topic]) return (await COMMANDS[topic].load()).run(['--help']);
    if (command === undefined && rest.length && !rest.some((a) => a === '-h' || a === '--help')) throw new UsageError('missing the command');
    process.stdout.write(HELP);
    return;
  }
  const entry = COMMANDS[command];
  if (!entry) {
    const near = nearest(command, Object.keys(COMMANDS));
    throw new UsageError(`unknown command "${command}"${near ? `; did you mean "spout ${near}"?` : ''}`);
  }
  const { run } = await entry.load();
  await run(rest);
}

main(process.argv.slice(2)).then(
  () => {
    // Done (streams and watchers are closed): an idle keep-alive socket must not hold the exit.
    if (splitCommand(process.argv.slice(2)).command !== 'serve') process.stdout.write('', () => process.exit(process.exitCode ?? 0));
  },
  (err: Error & { code?: string }) => {
    if (err instanceof UsageError || err.code?.startsWith('ERR_PARSE_ARGS')) {
      // Point at the help that exists: the command's own, or the list of commands.
      const command = splitCommand(process.argv.slice(2)).command;
      const hint = command && Object.hasOwn(COMMANDS, command) ? `Run "spout ${command} --help" for its options.` : 'Run "spout --help" for the commands.';
      process.stderr.write(`spout: ${err.message}\n${hint}\n`);
      process.exit(2);
    }
    process.stderr.write(`spout: ${errorText(err)}\n`);
    process.exit(1);
  },
);
