// Where a CLI command talks to: flags, profiles, environment, or the local service of a data dir.
import fs from 'node:fs';
import path from 'node:path';
import { resolveDataDir } from '../../lib/config';
import { configFile, DEFAULT_PROFILE, type Profile, readProfiles, type Target } from '../../remote/profiles';
import type { Globals } from './args';
import { UsageError } from './usage';

/** The local service of a data dir: `server.json`'s URL (if its process lives) and the `api-key` file. */
export function localService(dataDirOption?: string): { url?: string; apiKey?: string; dataDir: string; problem?: string } {
  const dataDir = resolveDataDir(dataDirOption);
  const serverFile = path.join(dataDir, 'server.json');
  let url: string | undefined;
  let problem: string | undefined;
  try {
    const info = JSON.parse(fs.readFileSync(serverFile, 'utf8')) as { url?: string; pid?: number };
    if (typeof info.pid === 'number' && !alive(info.pid)) problem = `the service recorded in ${serverFile} (pid ${info.pid}) is not running`;
    else url = info.url;
  } catch {
    problem = `no local Spout service is running (${serverFile} is missing)`;
  }
  let apiKey: string | undefined;
  try {
    apiKey = fs.readFileSync(path.join(dataDir, 'api-key'), 'utf8').trim() || undefined;
  } catch {
    // started with --api-key: the key must come from elsewhere
  }
  return { url, apiKey, dataDir, problem };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The service to talk to. Each of URL and key comes from the first that gives it: `--api-url` /
 * `--api-key`; the profile named by `-p`; `SPOUT_API_URL` / `SPOUT_API_KEY`; the default profile
 * (`spout login` without `-p`); the local service found through the data dir.
 */
export function resolveTarget(globals: Globals): Target {
  const profiles = readProfiles();
  let named: Profile | undefined;
  if (globals.profile !== undefined) {
    named = profiles[globals.profile];
    if (!named) {
      const known = Object.keys(profiles);
      throw new UsageError(`no profile "${globals.profile}" in ${configFile()}${known.length ? ` (there are: ${known.join(', ')})` : ''}; create it with "spout login -p ${globals.profile} --api-url URL --api-key KEY"`);
    }
  }
  if (named?.kind === 'pipedream') {
    throw new UsageError(`profile "${globals.profile}" is a Pipedream profile: it is a target of "spout sync push --to ${globals.profile}", not a Spout service to run commands against`);
  }
  const fallback = profiles[DEFAULT_PROFILE]?.kind === 'pipedream' ? undefined : profiles[DEFAULT_PROFILE];
  const env = { api_url: process.env.SPOUT_API_URL || undefined, api_key: process.env.SPOUT_API_KEY || undefined };
  const pick = (field: 'api_url' | 'api_key', flag: string | undefined, flagName: string, envName: string): [string, string] | undefined => {
    if (flag) return [flag, flagName];
    if (named?.[field]) return [named[field] as string, `profile "${globals.profile}"`];
    if (env[field]) return [env[field] as string, envName];
    if (fallback?.[field]) return [fallback[field] as string, `the default profile (${configFile()})`];
    return undefined;
  };
  const url = pick('api_url', globals.apiUrl, '--api-url', 'SPOUT_API_URL');
  const key = pick('api_key', globals.apiKey, '--api-key', 'SPOUT_API_KEY');
  if (url && key) return { url: trimUrl(url[0]), apiKey: key[0], origin: url[1], keyOrigin: key[1] };
  const local = localService(globals.dataDir);
  const finalUrl = url?.[0] ?? local.url;
  if (!finalUrl) {
    throw new Error(`${local.problem ?? 'no service to talk to'}. Start one with "spout serve", or point the CLI at one with --api-url URL --api-key KEY (or SPOUT_API_URL/SPOUT_API_KEY), or save a profile with "spout login"`);
  }
  const finalKey = key?.[0] ?? local.apiKey;
  if (!finalKey) {
    throw new Error(`no API key for ${finalUrl}: ${path.join(local.dataDir, 'api-key')} is missing (the service was started with --api-key?); give it with --api-key KEY or SPOUT_API_KEY, or save it with "spout login"`);
  }
  return {
    url: trimUrl(finalUrl),
    apiKey: finalKey,
    origin: url ? url[1] : `the local service (${path.join(local.dataDir, 'server.json')})`,
    keyOrigin: key ? key[1] : path.join(local.dataDir, 'api-key'),
  };
}

function trimUrl(url: string): string {
  return url.replace(/\/+$/, '').replace(/\/v1$/, '');
}
