import { createInterface } from 'node:readline/promises';
import { parse } from '../args';
import { ApiClient } from '../client';
import { out, printJson } from '../output';
import { configFile, DEFAULT_PROFILE, localService, writeProfile } from '../profiles';
import { canPrompt } from '../props';
import { UsageError } from '../usage';

export const HELP = `Usage: spout login --api-url URL --api-key KEY [-p NAME] [--no-verify]

Saves a profile: the URL and API key of a Spout service, in $XDG_CONFIG_HOME/spout/config (mode
0600). Without -p it is the default profile, used by every command that is not given another
(-p NAME, --api-url/--api-key, or SPOUT_API_URL/SPOUT_API_KEY). The key is checked against the
service first. On a terminal, what is not given is asked for (the local service is offered).

Options:
  --no-verify          save without checking the key against the service
`;

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, { 'no-verify': { type: 'boolean' } }, HELP);
  if (!args) return;
  args.atMost(0);
  const { profile = DEFAULT_PROFILE } = args.globals;
  let url = args.globals.apiUrl;
  let key = args.globals.apiKey;
  if (!url || !key) {
    if (!canPrompt()) throw new UsageError('give --api-url URL and --api-key KEY (or run in a terminal to be asked)');
    const local = localService(args.globals.dataDir);
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    try {
      url ||= (await rl.question(`API URL${local.url ? ` [${local.url}]` : ''}: `)).trim() || local.url;
      key ||= (await rl.question('API key: ')).trim() || (url === local.url ? local.apiKey : undefined);
    } finally {
      rl.close();
    }
    if (!url || !key) throw new UsageError('an API URL and an API key are needed');
  }
  try {
    if (!/^https?:\/\//.test(url)) throw new Error();
    new URL(url);
  } catch {
    throw new UsageError(`--api-url: "${url}" is not an http(s) URL, e.g. http://127.0.0.1:7620`);
  }
  url = url.replace(/\/+$/, '').replace(/\/v1$/, '');
  if (!args.flag('no-verify')) {
    const client = new ApiClient({ url, apiKey: key, origin: '--api-url', keyOrigin: '--api-key' });
    await client.get('/v1/users/me/sources', { limit: 1 });
  }
  writeProfile(profile, { api_url: url, api_key: key });
  if (args.globals.json) return printJson({ profile, api_url: url, config: configFile() });
  out(`Saved profile "${profile}" (${url}) in ${configFile()}`);
  if (profile !== DEFAULT_PROFILE) out(`Use it with: spout -p ${profile} list sources`);
}
