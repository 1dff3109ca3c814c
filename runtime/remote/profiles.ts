import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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
  const names = [
    DEFAULT_PROFILE,
    ...Object.keys(profiles)
      .filter((n) => n !== DEFAULT_PROFILE)
      .sort(),
  ].filter((n) => profiles[n]);
  const text =
    '# Spout CLI profiles, written by `spout login`. Use one with `spout -p NAME …`.\n' +
    names
      .map((n) => {
        const p = profiles[n] as Profile;
        // A Spout profile keeps the two lines it always had; `kind` only for other kinds.
        return `[${n}]\n${FIELDS.filter((f) => p[f] && !(f === 'kind' && p[f] === 'spout'))
          .map((f) => `${f} = ${p[f]}\n`)
          .join('')}`;
      })
      .join('\n');
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, text, { mode: 0o600 });
  fs.renameSync(temp, file);
  fs.chmodSync(file, 0o600);
}
