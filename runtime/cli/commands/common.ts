import type { SourceView } from '../../api/types';
import type { Args } from '../args';
import { ApiClient } from '../client';
import { dateTime } from '../output';
import { resolveTarget } from '../profiles';

/** The API client for this invocation (see profiles.ts for where the URL and key come from). */
export function connect(args: Args): ApiClient {
  return new ApiClient(resolveTarget(args.globals));
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
  const eps = endpoints(source);
  for (const e of eps) lines.push(`Endpoint${eps.length > 1 ? ` (${e.prop})` : ''}: ${e.url}`);
  for (const [prop, t] of Object.entries(source.timers ?? {})) {
    const schedule = 'cron' in t.schedule ? `cron "${t.schedule.cron}"${t.schedule.timezone ? ` (${t.schedule.timezone})` : ''}` : `every ${t.schedule.intervalSeconds} s`;
    lines.push(`Timer${Object.keys(source.timers).length > 1 ? ` (${prop})` : ''}: ${schedule}${t.next_run_at ? `, next at ${dateTime(t.next_run_at)}` : source.active ? '' : ' (inactive)'}`);
  }
  return lines;
}
