// `spout dev` and changes made elsewhere (the UI, the CLI, the API): the versions it did not
// deploy are noticed while it watches, and their code is written out for comparison, so that a
// save of the file never replaces them unseen (docs/cli.md "dev").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHANGE_ORIGIN_LABELS, type ChangeOrigin } from '../../contract/change-api';
import type { SourceView } from '../../contract/source-api';
import type { ApiClient } from '../../remote/api-client';
import { clock, dim, displayPath, out, printJsonLine, yellow } from './output';

/** How often the source's version is read while watching. */
const POLL_MS = 2000;

/** Who made a version, for people: "from the UI". */
export function fromWhom(by: ChangeOrigin | null): string {
  return by ? `from ${CHANGE_ORIGIN_LABELS[by]}` : 'elsewhere';
}

/** Writes the code a version of the source runs to the temp folder (never beside the watched file); answers its path. */
export async function writeVersionCode(client: ApiClient, sourceId: string): Promise<{ file: string; source: SourceView }> {
  const { data } = await client.get<{ data: SourceView }>(`/v1/sources/${sourceId}`);
  const ext = path.extname(data.filename ?? '') || '.mjs';
  const file = path.join(os.tmpdir(), `spout-dev-${data.id}.v${data.version}${ext}`);
  fs.writeFileSync(file, data.code ?? '');
  return { file, source: data };
}

/** What the watch asks of the dev session. */
export interface VersionWatchOptions {
  sourceId: string;
  /** The version the session deployed last (a newer one was made elsewhere). */
  known: () => number | null;
  /** The code the session deployed last. */
  deployedCode: () => string | null;
  /** A newer version that kept this session's code (props, name or active changed): the next save is based on it. */
  adopt: (version: number) => void;
  /** A redeploy is under way: its own new version is not someone else's. */
  busy: () => boolean;
  /** The file being watched, to print the diff command. */
  shown: string;
  json: boolean;
  signal: AbortSignal;
}

/**
 * Reads the source's version every 2 s and prints each version made elsewhere, once: one that
 * kept this session's code is adopted (nothing of it would be lost by the next save), another is
 * written out for comparison and holds the next save.
 */
export function watchVersions(client: ApiClient, options: VersionWatchOptions): void {
  let reported = 0;
  let reading = false;
  const tick = async () => {
    const known = options.known();
    if (reading || known === null || options.busy()) return;
    reading = true;
    try {
      const { data } = await client.get<{ data: SourceView }>(`/v1/sources/${options.sourceId}`);
      // Stale once a redeploy started meanwhile; old if this version was reported.
      if (options.busy() || options.signal.aborted || data.version <= (options.known() ?? data.version) || data.version <= reported) return;
      reported = data.version;
      if (data.code === options.deployedCode()) {
        options.adopt(data.version);
        return printChanged(data, null, known, options);
      }
      const { file } = await writeVersionCode(client, options.sourceId);
      printChanged(data, file, known, options);
    } catch {
      // Unreachable or gone: the event stream says so (and ends the session for a deleted source).
    } finally {
      reading = false;
    }
  };
  const timer = setInterval(() => void tick(), POLL_MS);
  options.signal.addEventListener('abort', () => clearInterval(timer), { once: true });
}

/** Says a version was made elsewhere: with its code's file when the code is not this session's (`file` null: it is). */
function printChanged(source: SourceView, file: string | null, known: number, options: VersionWatchOptions): void {
  const next = file ? `its code is not ${options.shown}'s. Your next save of ${options.shown} is held, not deployed; save again to replace version ${source.version}` : `its code is still ${options.shown}'s, so saves go on as before`;
  const message = `${source.id} was changed ${fromWhom(source.changed_by)}: it is at version ${source.version} (this session deployed version ${known}); ${next}`;
  if (options.json) {
    printJsonLine({ type: 'changed', source_id: source.id, version: source.version, changed_by: source.changed_by, changed_at: source.changed_at, code_changed: file !== null, code_file: file, message });
    return;
  }
  out(`${dim(clock(Date.now()))} ${yellow('changed')} ${message}.`);
  if (file) out(`  Its code: ${displayPath(file)} (compare: diff -u ${displayPath(file)} ${options.shown})`);
}

/** Prints a save refused because the source changed elsewhere (a 409), and how to go on. */
export function printConflict(source: SourceView, file: string, base: number, shown: string, json: boolean): void {
  const message = `${shown} was not deployed: ${source.id} is at version ${source.version} (changed ${fromWhom(source.changed_by)}), not version ${base} this session deployed. Save ${shown} again (or touch it) to replace version ${source.version} with it, or copy what you want to keep from its code first`;
  if (json) {
    printJsonLine({ type: 'conflict', source_id: source.id, current_version: source.version, base_version: base, changed_by: source.changed_by, code_file: file, message });
    return;
  }
  out(`${dim(clock(Date.now()))} ${yellow('conflict')} ${message}.`);
  out(`  Its code: ${displayPath(file)} (compare: diff -u ${displayPath(file)} ${shown})`);
}
