import { serve, SERVE_HELP } from './serve';
import { UsageError } from './usage';

const HELP = `Usage: spout <command> [options]

Commands:
  serve        start the Spout service (API, endpoints, UI)

Run "spout <command> --help" for a command's options.
`;

/** Entry of the `spout` command. */
async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return serve(rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(rest[0] === 'serve' ? SERVE_HELP : HELP);
      return;
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

main(process.argv.slice(2)).catch((err: Error & { code?: string }) => {
  if (err instanceof UsageError || err.code?.startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`spout: ${err.message}\nRun "spout --help" for usage.\n`);
    process.exit(2);
  }
  process.stderr.write(`spout: ${err.message}\n`);
  process.exit(1);
});
