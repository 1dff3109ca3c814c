// `spout test --from INVOCATION_ID [FILE]`: the service writes a test of a recorded run
// (GET /v1/invocations/{id}/test); this puts its files beside the component, never over a test or
// cassette already there.
import fs from 'node:fs';
import path from 'node:path';
import type { InvocationRecordView } from '../../contract/invocation-api';
import type { Cassette } from '../../contract/network-api';
import type { SourceView } from '../../contract/source-api';
import { type ApiClient, ApiError } from '../../remote/api-client';
import { type GeneratedTest, mergeCassettes } from '../../testing/test-from-run';
import { readCassette } from '../../testing/test-network';
import { displayPath, note, out, yellow } from './output';
import { UsageError } from './usage';

/** Where a test of the run goes: the component file it loads, and whether its code had to be written there. */
interface Placement {
  component: string;
  wroteCode: boolean;
}

/** Writes a test of run `id` beside `file` (else the file the source was deployed from, else a folder named by the source) and prints how to run it. */
export async function writeTestFromRun(client: ApiClient, id: string, file: string | undefined): Promise<void> {
  if (file !== undefined && !(fs.existsSync(file) && fs.statSync(file).isFile())) throw new UsageError(`${file}: no such component file`);
  const run = await client.get<{ data: InvocationRecordView }>(`/v1/invocations/${encodeURIComponent(id)}`).catch((err: unknown) => {
    if (err instanceof ApiError && err.status === 404) throw new Error(`no recorded run ${id}; list a source's runs with "spout invocations SRC" (ids start with inv_)`);
    throw err;
  });
  const source = await client.get<{ data: SourceView }>(`/v1/sources/${encodeURIComponent(run.data.owner_id)}`).catch((err: unknown) => {
    if (err instanceof ApiError && err.status === 404) throw new Error(`${id} is a run of ${run.data.owner_id}, not of a deployed source; only a source's runs become tests (write an action's with loadAction, docs/testing.md)`);
    throw err;
  });
  const place = placement(source.data, file);
  const generated = await client.get<{ data: GeneratedTest }>(`/v1/invocations/${encodeURIComponent(id)}/test`, { file: path.basename(place.component) });
  if (place.wroteCode) out(`Wrote the code source ${source.data.name_slug} runs to ${displayPath(place.component)} (no ${source.data.filename} here).`);
  const written = writeFiles(path.dirname(place.component), generated.data, id);
  for (const w of generated.data.warnings) note(`${yellow('warning', process.stderr)}: ${w}`);
  for (const line of written.lines) out(line);
  out(`Run it: spout test ${displayPath(written.test)}`);
}

/** The component file the test loads: FILE, else the deployed file's name in this folder, else the source's code written into ./SLUG/. */
function placement(source: SourceView, file: string | undefined): Placement {
  if (file !== undefined) return { component: path.resolve(file), wroteCode: false };
  const name = source.filename ?? 'component.mjs';
  if (fs.existsSync(name)) return { component: path.resolve(name), wroteCode: false };
  const component = path.resolve(source.name_slug, name);
  if (fs.existsSync(component)) return { component, wroteCode: false };
  fs.mkdirSync(path.dirname(component), { recursive: true });
  fs.writeFileSync(component, source.code ?? '');
  return { component, wroteCode: true };
}

/** Writes the test (NAME.from-ID.test.mjs when NAME.test.mjs or the cassette exists) and the cassette (merged into one that exists). */
function writeFiles(dir: string, generated: GeneratedTest, id: string): { test: string; lines: string[] } {
  const lines: string[] = [];
  let test = '';
  const stem = generated.files[0]?.name.replace(/\.test\.mjs$/, '') ?? '';
  const taken = [`${stem}.test.mjs`, `${stem}.cassette.json`].some((name) => fs.existsSync(path.join(dir, name)));
  for (const f of generated.files) {
    let target = path.join(dir, f.name);
    if (f.name.endsWith('.cassette.json') && fs.existsSync(target)) {
      const { cassette, added } = mergeCassettes(readCassette(target), JSON.parse(f.content) as Cassette);
      if (added) fs.writeFileSync(target, `${JSON.stringify(cassette, null, 2)}\n`);
      lines.push(`${added ? 'Added' : 'Kept'} ${displayPath(target)} (${added} of the run's ${(JSON.parse(f.content) as Cassette).entries.length} calls added)`);
      continue;
    }
    if (f.name.endsWith('.test.mjs')) {
      if (taken) target = path.join(dir, f.name.replace(/\.test\.mjs$/, `.from-${id}.test.mjs`));
      test = target;
    }
    fs.writeFileSync(target, f.content);
    lines.push(`Wrote ${displayPath(target)}`);
  }
  return { test, lines };
}
