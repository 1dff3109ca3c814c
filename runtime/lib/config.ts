import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newToken } from './ids';
import { keepPrivate } from './private-files';

/** The platform's app-data folder for Spout (`~/.config/spout` on Linux). */
export function defaultDataDir(): string {
  const home = os.homedir();
  if (process.platform === 'win32') return path.join(process.env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'spout');
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'spout');
  return path.join(process.env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'spout');
}

/** The data dir: explicit value, else `SPOUT_DATA_DIR`, else the platform default. */
export function resolveDataDir(explicit?: string): string {
  return path.resolve(explicit ?? process.env.SPOUT_DATA_DIR ?? defaultDataDir());
}

/** The API key: explicit value, else `SPOUT_API_KEY`, else the one kept in `DATA_DIR/api-key` (created once, mode 0600). */
export function resolveApiKey(dataDir: string, explicit?: string): string {
  const given = explicit ?? process.env.SPOUT_API_KEY;
  if (given) return given;
  const file = path.join(dataDir, 'api-key');
  try {
    const kept = fs.readFileSync(file, 'utf8').trim();
    keepPrivate(file);
    if (kept) return kept;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const key = `spk_${newToken(24)}`;
  fs.writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}

/** Parses a retry schedule such as `1,2,5` (seconds between attempts); throws a message naming the bad part. */
export function parseRetrySchedule(text: string): number[] {
  const parts = text.split(',').map((p) => p.trim());
  const seconds = parts.map(Number);
  const bad = parts.find((p, i) => p === '' || !Number.isFinite(seconds[i]) || (seconds[i] as number) < 0);
  if (bad !== undefined) {
    throw new Error(`retry schedule "${text}": "${bad}" is not a number of seconds; give comma-separated seconds such as 1,2,5`);
  }
  return seconds;
}

/** Checks an npm registry URL (`--npm-registry`); returns it with a trailing slash, or throws a message saying what is wrong. */
export function parseNpmRegistry(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new Error(`"${text}" is not a URL; give the registry's address, e.g. https://registry.npmjs.org/`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`"${text}" is not an http(s) URL`);
  // npm joins package names onto the registry URL; without the slash a path prefix would be lost.
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}
