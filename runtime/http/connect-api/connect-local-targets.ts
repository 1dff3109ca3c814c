// Where the Connect proxy sends an account's credential (docs/security.md, "Delivery targets and
// loops"): never to this Spout, and nowhere on this machine (loopback, link-local, its own names)
// unless the project allows local targets. An account's URL fields, which an end user sets and the
// proxy resolves relative URLs against, are held to the same rule when the account is made.
import type { ConnectionPolicy } from '../../engine/connect/proxy-call';
import { isThisMachine, portOf, resolvesToThisMachine } from '../../lib/local-addresses';
import type { ConnectProjectRecord } from '../../store/connect-records';
import { HttpError } from '../edge/error-statuses';
import type { ConnectContext } from './connect-context';

/** How the project lets the proxy and its end users' accounts reach this machine. */
function allowHint(project: ConnectProjectRecord): string {
  return `the project's server can allow it: PATCH /v1/connect/projects/${project.id} {"allow_local_targets": true} (or Settings → Connect)`;
}

/** Why the proxy may not reach `host`:`port` for `project` (the service's own port: never), or null; `here` when the name resolves to this machine. */
function refusal(ctx: ConnectContext, host: string, port: number, project: ConnectProjectRecord, here = isThisMachine(host)): { status: 400 | 403; message: string } | null {
  if (!here) return null;
  if (port === ctx.auth.port()) return { status: 400, message: `${host} port ${port} is this Spout service itself; the proxy sends an account's credential to the app's API, never to Spout` };
  if (project.allow_local_targets) return null;
  return { status: 403, message: `${host} port ${port} is on the developer's machine (a loopback, link-local or own address), which the proxy does not call for project ${project.id}; ${allowHint(project)}` };
}

/** Refuses a proxy URL aimed at this Spout (400) or, unless the project allows it, this machine (403); 400 for what is no URL. */
export function requireProxyTarget(ctx: ConnectContext, url: string, project: ConnectProjectRecord): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new HttpError(400, `${url} is not a URL the proxy can call; give an absolute http(s) URL, or a path relative to the account's base URL`);
  }
  const refused = refusal(ctx, u.hostname, portOf(u), project);
  if (refused) throw new HttpError(refused.status, `${url}: ${refused.message}`);
}

/** The same rule for each connection the proxy opens, by the address it reached (a name that resolves here, a redirect). */
export function proxyConnectionPolicy(ctx: ConnectContext, project: ConnectProjectRecord): ConnectionPolicy {
  return (address, port) => refusal(ctx, address, port, project)?.message ?? null;
}

/** Refuses an account whose URL fields point at this Spout (400) or, unless the project allows it, this machine (403); host names are looked up. */
export async function requireAccountUrls(ctx: ConnectContext, credentials: Record<string, unknown>, project: ConnectProjectRecord, field: string): Promise<void> {
  for (const [name, value] of Object.entries(credentials)) {
    if (typeof value !== 'string' || !/^https?:\/\//i.test(value)) continue;
    let u: URL;
    try {
      u = new URL(value);
    } catch {
      continue; // not a URL the proxy could call either
    }
    const refused = refusal(ctx, u.hostname, portOf(u), project, isThisMachine(u.hostname) || (await resolvesToThisMachine(u.hostname)));
    if (refused) throw new HttpError(refused.status, `${field}: "${name}" (${value}) is where the proxy would send this account's credential: ${refused.message}`);
  }
}
