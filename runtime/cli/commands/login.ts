import { createInterface } from 'node:readline/promises';
import { ApiClient } from '../../remote/api-client';
import { configFile, DEFAULT_PROFILE, writeProfile } from '../../remote/profiles';
import { checkPipedream } from '../../sync/pipedream-side';
import { checkRemoteUrl } from '../../sync/remotes';
import { PIPEDREAM_API, remoteClient } from '../../sync/sync-session';
import type { Args } from '../support/args';
import { parse } from '../support/args';
import { out, printJson } from '../support/output';
import { canPrompt } from '../support/prop-prompts';
import { localService } from '../support/target';
import { UsageError } from '../support/usage';

/** `spout login --pipedream`: a Pipedream profile, a sync target. */
async function pipedreamLogin(args: Args): Promise<void> {
  const profile = args.globals.profile ?? 'pipedream';
  const key = args.globals.apiKey;
  if (!key) throw new UsageError('give --api-key KEY, your Pipedream user API key (pipedream.com → Settings → API key)');
  const orgId = args.string('org-id');
  if (orgId !== undefined && !/^o_[A-Za-z0-9]+$/.test(orgId)) throw new UsageError(`--org-id: "${orgId}" is not a Pipedream workspace id (o_…)`);
  let url: string;
  try {
    url = checkRemoteUrl(args.globals.apiUrl ?? PIPEDREAM_API);
  } catch (err) {
    throw new UsageError(`--api-url: ${(err as Error).message}`);
  }
  const who = args.flag('no-verify') ? null : await checkPipedream(remoteClient({ name: profile, kind: 'pipedream', url, apiKey: key, orgId: orgId ?? null }), orgId ?? null);
  writeProfile(profile, { kind: 'pipedream', api_url: url, api_key: key, ...(orgId ? { org_id: orgId } : {}) });
  if (args.globals.json) return printJson({ profile, kind: 'pipedream', api_url: url, org_id: orgId ?? null, user: who, config: configFile() });
  out(`Saved Pipedream profile "${profile}"${who ? ` (signed in as ${who})` : ''} in ${configFile()}`);
  out(`Push to it with: spout sync push --to ${profile}`);
}

export const HELP = `Usage: spout login --api-url URL --api-key KEY [-p NAME] [--no-verify]
       spout login --pipedream --api-key KEY [-p NAME] [--org-id o_…]

Saves a profile: the URL and API key of a Spout service, in $XDG_CONFIG_HOME/spout/config (mode
0600). Without -p it is the default profile, used by every command that is not given another
(-p NAME, --api-url/--api-key, or SPOUT_API_URL/SPOUT_API_KEY). The key is checked against the
service first. On a terminal, what is not given is asked for (the local service is offered).
Plain http is refused for another machine (keys and secrets would cross the network in clear):
use https, or an SSH tunnel to 127.0.0.1.

With --pipedream it saves a Pipedream profile (default name "pipedream"), a target of
"spout sync push --to NAME": a Pipedream user API key (pipedream.com → Settings → API key), and
the workspace to act in with --org-id. The key is checked with Pipedream's GET /v1/users/me.

Options:
  --no-verify          save without checking the key against the service
  --pipedream          a Pipedream profile (--api-url defaults to https://api.pipedream.com)
  --org-id ID          the Pipedream workspace (o_…) sources and webhooks go to
`;

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, { 'no-verify': { type: 'boolean' }, pipedream: { type: 'boolean' }, 'org-id': { type: 'string' } }, HELP);
  if (!args) return;
  args.atMost(0);
  if (args.flag('pipedream')) return pipedreamLogin(args);
  if (args.string('org-id')) throw new UsageError('--org-id is for Pipedream profiles: add --pipedream');
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
    url = checkRemoteUrl(url);
  } catch (err) {
    throw new UsageError(`--api-url: ${(err as Error).message}`);
  }
  if (!args.flag('no-verify')) {
    const client = new ApiClient({ url, apiKey: key, origin: '--api-url', keyOrigin: '--api-key' });
    await client.get('/v1/users/me/sources', { limit: 1 });
  }
  writeProfile(profile, { api_url: url, api_key: key });
  if (args.globals.json) return printJson({ profile, api_url: url, config: configFile() });
  out(`Saved profile "${profile}" (${url}) in ${configFile()}`);
  if (profile !== DEFAULT_PROFILE) out(`Use it with: spout -p ${profile} list sources`);
}
