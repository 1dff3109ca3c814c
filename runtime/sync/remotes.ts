// Remote instances are the CLI's `spout login` profiles ($XDG_CONFIG_HOME/spout/config): the same
// names in `spout sync --to NAME` and in the UI's Settings → Remote instances.

import type { RemoteKind, RemoteView } from '../contract/sync-api';
import { isLoopbackHost } from '../lib/loopback';
import { configFile, type Profile, readProfiles } from '../remote/profiles';
import { PIPEDREAM_API, type RemoteSpec } from './sync-session';

/**
 * A remote's address, checked: http(s) with a host, and plain http only to this machine (keys and
 * secrets travel to it). Returns it without a trailing slash or `/v1`; throws a message naming the fix.
 */
export function checkRemoteUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new Error(`"${text}" is not a URL; give one such as https://spout.example.com or http://127.0.0.1:7620`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`"${text}" is not an http(s) URL`);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new Error(`"${text}" is plain http to another machine: its API key and any secrets would cross the network in clear; use https://, or an SSH tunnel (ssh -L 7620:127.0.0.1:7620 HOST, then http://127.0.0.1:7620)`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** The kind a profile names (`spout` when none). */
export function profileKind(profile: Profile): RemoteKind {
  return profile.kind === 'pipedream' ? 'pipedream' : 'spout';
}

/** The remote a profile names, or an error saying how to create it. */
export function remoteFromProfile(name: string, profiles = readProfiles()): RemoteSpec {
  const profile = Object.hasOwn(profiles, name) ? profiles[name] : undefined;
  if (!profile) {
    const known = Object.keys(profiles);
    throw new Error(`no profile "${name}" in ${configFile()}${known.length ? ` (there are: ${known.join(', ')})` : ''}; create it with "spout login -p ${name} --api-url URL --api-key KEY" (or --pipedream --api-key KEY)`);
  }
  const kind = profileKind(profile);
  const url = profile.api_url || (kind === 'pipedream' ? PIPEDREAM_API : '');
  if (!url || !profile.api_key) throw new Error(`profile "${name}" in ${configFile()} lacks ${url ? 'api_key' : 'api_url'}; save it again with "spout login -p ${name}"`);
  return { name, kind, url: checkRemoteUrl(url), apiKey: profile.api_key, orgId: profile.org_id || null };
}

/** Every profile as the API shows it (never a key). */
export function remoteViews(profiles = readProfiles()): RemoteView[] {
  return Object.entries(profiles)
    .filter(([, p]) => p.api_key && (p.api_url || p.kind === 'pipedream'))
    .map(([name, p]) => ({ name, kind: profileKind(p), url: p.api_url || PIPEDREAM_API, org_id: p.org_id || null, api_key_hint: (p.api_key ?? '').slice(-4) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
