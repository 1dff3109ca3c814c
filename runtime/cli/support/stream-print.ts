import type { ListResponse } from '../../contract/page';
import type { StreamRow } from '../../contract/stream-api';
import type { ApiClient } from '../../remote/api-client';
import { bold, clock, cyan, dim, out, printJson, red } from './output';

/** One row of the stream as a line: time, kind, target, status or delivery, request, summary. */
export function streamLine(r: StreamRow): string {
  const state = r.kind === 'run' ? (r.status === 'ok' ? (r.status ?? '') : red(r.status ?? '')) : (r.delivery?.state ?? '');
  const request = r.method ? `${r.method} ${r.path ?? ''}${r.response_status ? ` → ${r.response_status}` : ''}` : (r.trigger ?? '');
  return [dim(clock(r.ts)), cyan(r.kind.padEnd(5)), bold(r.target.name), state, request, r.summary ?? '', dim(r.id)].filter(Boolean).join('  ');
}

/** Prints the newest `count` rows of GET /v1/stream matching `filter`, oldest first (a JSON array, newest first, with --json). */
export async function printStream(client: ApiClient, filter: string, count: number, json: boolean): Promise<void> {
  const page = await client.get<ListResponse<StreamRow>>('/v1/stream', { limit: count, filter: filter.trim() });
  if (json) return printJson(page.data);
  if (page.data.length === 0) return out(dim('Nothing matches.'));
  for (const r of [...page.data].reverse()) out(streamLine(r));
}
