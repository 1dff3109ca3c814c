import path from 'node:path';
import type { ChangeOrigin } from '../../contract/change-api';
import { NETWORK_MODES as MODES } from '../../contract/network-api';
import type { SourceView } from '../../contract/source-api';
import { ApiClient } from '../../remote/api-client';
import type { Args } from '../support/args';
import { dateTime } from '../support/output';
import { resolveTarget } from '../support/target';

/** The API client for this invocation (see profiles.ts for where the URL and key come from), naming itself `client` to the service. */
export function connect(args: Args, client: ChangeOrigin = 'cli'): ApiClient {
  return new ApiClient(resolveTarget(args.globals), client);
}

/** The endpoint URL of each HTTP interface prop of a source. */
export function endpoints(source: SourceView): Array<{ prop: string; url: string }> {
  const out: Array<{ prop: string; url: string }> = [];
  for (const [prop, value] of Object.entries(source.configured_props)) {
    const url = (value as { endpoint_url?: unknown } | null)?.endpoint_url;
    if (typeof url === 'string') out.push({ prop, url });
  }
  return out;
}

/** Lines showing where a source is reached: endpoints and timers. */
export function reachLines(source: SourceView): string[] {
  const lines: string[] = [];
  const granted = source.permissions ?? { read: [], write: [] };
  if (granted.read.length) lines.push(`May read: ${granted.read.join(', ')}`);
  if (granted.write.length) lines.push(`May write: ${granted.write.join(', ')}`);
  const eps = endpoints(source);
  for (const e of eps) lines.push(`Endpoint${eps.length > 1 ? ` (${e.prop})` : ''}: ${e.url}`);
  for (const [prop, t] of Object.entries(source.timers ?? {})) {
    const schedule = 'cron' in t.schedule ? `cron "${t.schedule.cron}"${t.schedule.timezone ? ` (${t.schedule.timezone})` : ''}` : `every ${t.schedule.intervalSeconds} s`;
    lines.push(`Timer${Object.keys(source.timers).length > 1 ? ` (${prop})` : ''}: ${schedule}${t.next_run_at ? `, next at ${dateTime(t.next_run_at)}` : source.active ? '' : ' (inactive)'}`);
  }
  return lines;
}

/** Options granting a source folders beyond the defaults (docs/security.md). */
export const GRANT_OPTIONS = { 'allow-read': { type: 'string', multiple: true }, 'allow-write': { type: 'string', multiple: true } } as const;

/** Help lines of GRANT_OPTIONS. */
export const GRANT_HELP = `  --allow-read PATH    let the component read this folder or file (repeatable; relative to here)
  --allow-write PATH   let it read and write this folder or file (repeatable)
`;

/** The `permissions` of a deploy or update, when --allow-read or --allow-write was given. */
export function grantsOption(args: Args): { read: string[]; write: string[] } | undefined {
  const read = args.strings('allow-read').map((p) => path.resolve(p));
  const write = args.strings('allow-write').map((p) => path.resolve(p));
  return read.length + write.length > 0 ? { read, write } : undefined;
}

/** The network modes a source may have (`--network`). */
export const NETWORK_MODES: readonly string[] = MODES;
