import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveDataDir } from '../config';
import type { Globals } from './args';
import { UsageError } from './usage';

/** A saved connection to a Spout service, or to Pipedream (`kind = pipedream`, a sync target). */
export interface Profile {
  api_url?: string;
  api_key?: string;
  /** `spout` (the default) or `pipedream`. */
  kind?: string;
  /** Pipedream workspace (`o_…`) the key acts in. */
  org_id?: string;
}

const FIELDS = ['kind', 'api_url', 'api_key', 'org_id'] as const;

/** Where the CLI talks to, and how it came to (for messages that say what to change). */
export interface Target {
  url: string;
  apiKey: string;
  /** Where the URL came from, e.g. `profile "work"`, `--api-url`, `the local service (DIR/server.json)`. */
  origin: string;
  /** Where the key came from, e.g. `--api-key`, `SPOUT_API_KEY`, `DIR/api-key`. */
  keyOrigin: string;
  /** What is reached, for messages, when it is a remote of sync (`Pipedream`, `the Spout instance "b"`). */
  service?: string;
  /** How to save the right key, for a remote of sync. */
  loginHint?: string;
}

export const DEFAULT_PROFILE = 'default';

/** `$XDG_CONFIG_HOME/spout/config` (`~/.config/spout/config`; `%APPDATA%\spout\config` on Windows). */
export function configFile(): string {
  const base = process.env.XDG_CONFIG_HOME || (process.platform === 'win32' ? (process.env.APPDATA ?? path.join(os.homedir(), 'AppData', 'Roaming')) : path.join(os.homedir(), '.config'));
  return path.join(base, 'spout', 'config');
}

/**
 * Reads the profiles file: INI as `pd` writes its own (`[name]` sections of `api_url = …` and
 * `api_key = …`; keys before any section belong to the default profile). Missing file: none.
 */
export function readProfiles(file = configFile()): Record<string, Profile> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`cannot read ${file}: ${(err as Error).message}`);
  }
  const profiles: Record<string, Profile> = {};
  let current = DEFAULT_PROFILE;
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[([^\]]+)\]$/.exec(line);
    if (section) {
      current = (section[1] as string).trim();
      continue;
    }
    const eq = line.indexOf('=');
    if (eq === -1) throw new Error(`${file}:${i + 1}: "${line}" is not "name = value"; fix or delete the line`);
    const key = line.slice(0, eq).trim();
    let value = line.slice(eq + 1).trim();
    if (/^".*"$/.test(value)) value = value.slice(1, -1);
    const profile = (profiles[current] ??= {});
    if ((FIELDS as readonly string[]).includes(key)) profile[key as (typeof FIELDS)[number]] = value;
  }
  return profiles;
}

/** Saves (or replaces) one profile, keeping the others; the file is private to the user (0600). */
export function writeProfile(name: string, profile: Profile, file = configFile()): void {
  const profiles = readProfiles(file);
  profiles[name] = profile;
  writeProfiles(profiles, file);
}

/** Removes a profile; false when there was none of that name. */
export function removeProfile(name: string, file = configFile()): boolean {
  const profiles = readProfiles(file);
  if (!Object.hasOwn(profiles, name)) return false;
  delete profiles[name];
  writeProfiles(profiles, file);
  return true;
}

function writeProfiles(profiles: Record<string, Profile>, file: string): void {
  const names = [DEFAULT_PROFILE, ...Object.keys(profiles).filter((n) => n !== DEFAULT_PROFILE).sort()].filter((n) => profiles[n]);
  const text =
    '# Spout CLI profiles, written by `spout login`. Use one with `spout -p NAME …`.\n' +
    names
      .map((n) => {
        const p = profiles[n] as Profile;
        // A Spout profile keeps the two lines it always had; `kind` only for other kinds.
        return `[${n}]\n${FIELDS.filter((f) => p[f] && !(f === 'kind' && p[f] === 'spout')).map((f) => `${f} = ${p[f]}\n`).join('')}`;
      })
      .join('\n');
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, text, { mode: 0o600 });
  fs.renameSync(temp, file);
  fs.chmodSync(file, 0o600);
}

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
      throw new UsageError(
        `no profile "${globals.profile}" in ${configFile()}${known.length ? ` (there are: ${known.join(', ')})` : ''}; create it with "spout login -p ${globals.profile} --api-url URL --api-key KEY"`,
      );
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
    throw new Error(
      `${local.problem ?? 'no service to talk to'}. Start one with "spout serve", or point the CLI at one with --api-url URL --api-key KEY (or SPOUT_API_URL/SPOUT_API_KEY), or save a profile with "spout login"`,
    );
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
