import { type ParseArgsConfig, parseArgs } from 'node:util';
import { nearest, UsageError } from './usage';

type OptionSpec = NonNullable<ParseArgsConfig['options']>;

/** Options every command takes (docs/cli.md). */
export const GLOBAL_OPTIONS = {
  'api-url': { type: 'string' },
  'api-key': { type: 'string' },
  profile: { type: 'string', short: 'p' },
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies OptionSpec;

/** Global options that take a value: `spout --api-url X list` must not read X as the command. */
const VALUE_OPTIONS = new Set(['--api-url', '--api-key', '--profile', '-p', '--data-dir']);

export const GLOBAL_HELP = `Global options:
  --api-url URL      the Spout service to talk to (env SPOUT_API_URL)
  --api-key KEY      its API key (env SPOUT_API_KEY)
  -p, --profile NAME a profile saved with "spout login -p NAME"
  --data-dir DIR     find the local service through DIR/server.json (env SPOUT_DATA_DIR)
  --json             machine-readable output
  -h, --help         show this help
`;

/** Where the CLI finds its service; see profiles.ts for the order they are tried in. */
export interface Globals {
  apiUrl?: string;
  apiKey?: string;
  profile?: string;
  dataDir?: string;
  json: boolean;
}

/** The first argument that is not an option (or an option's value): the command name. */
export function splitCommand(argv: string[]): { command: string | undefined; rest: string[] } {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (VALUE_OPTIONS.has(arg)) i++;
      continue;
    }
    return { command: arg, rest: [...argv.slice(0, i), ...argv.slice(i + 1)] };
  }
  return { command: undefined, rest: argv };
}

/** A command's parsed arguments, read through typed accessors. */
export class Args {
  constructor(
    private readonly values: Record<string, string | boolean | Array<string | boolean> | undefined>,
    readonly positionals: string[],
  ) {}

  string(name: string): string | undefined {
    const v = this.values[name];
    return typeof v === 'string' ? v : undefined;
  }

  strings(name: string): string[] {
    const v = this.values[name];
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : [];
  }

  flag(name: string): boolean {
    return this.values[name] === true;
  }

  get globals(): Globals {
    return {
      apiUrl: this.string('api-url'),
      apiKey: this.string('api-key'),
      profile: this.string('profile'),
      dataDir: this.string('data-dir'),
      json: this.flag('json'),
    };
  }

  /** The positional at `index`, or a usage error naming what is missing. */
  required(index: number, what: string): string {
    const v = this.positionals[index];
    if (v === undefined || v === '') throw new UsageError(`missing ${what}`);
    return v;
  }

  /** Refuses positionals beyond `count`. */
  atMost(count: number): this {
    if (this.positionals.length > count) throw new UsageError(`unexpected argument "${this.positionals[count]}"`);
    return this;
  }
}

/**
 * Parses a command's arguments (its own options plus the global ones). Prints `help` and returns
 * null for `--help`.
 */
export function parse(argv: string[], options: OptionSpec, help: string): Args | null {
  const all = { ...GLOBAL_OPTIONS, ...options };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options: all, allowPositionals: true, strict: true });
  } catch (err) {
    throw usageOf(err as Error & { code?: string }, Object.keys(all));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(help.endsWith('\n') ? help : `${help}\n`);
    process.stdout.write(`\n${GLOBAL_HELP}`);
    return null;
  }
  return new Args(values as Record<string, string | boolean | Array<string | boolean> | undefined>, positionals);
}

/** A whole number option within bounds, or a usage error saying which values are allowed. */
export function intOption(args: Args, name: string, fallback: number, min: number, max: number): number {
  const text = args.string(name);
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name}: "${text}" is not a whole number from ${min} to ${max}`);
  return n;
}

/** node:util's parse errors in our words (its unknown-option text ends with an unbalanced quote). */
function usageOf(err: Error & { code?: string }, names: string[]): Error {
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const option = /Unknown option '([^']+)'/.exec(err.message)?.[1] ?? '';
    const near = option.startsWith('--') ? nearest(option.slice(2), names) : undefined;
    const value = option.startsWith('-') ? ` (a value starting with "-" goes after "--": -- ${option})` : '';
    return new UsageError(`unknown option "${option}"${near ? `; did you mean "--${near}"?` : value}`);
  }
  if (err.code?.startsWith('ERR_PARSE_ARGS')) return new UsageError(err.message.replace(/'/g, '"'));
  return err;
}
