import type { ComponentView } from '../../contract/component-api';
import type { SourceView } from '../../contract/source-api';
import { ApiError } from '../../remote/api-client';
import { parse } from '../support/args';
import { writeComponentFiles } from '../support/component-files';
import { bold, dateTime, dim, out, printJson } from '../support/output';
import { resolveSource } from '../support/resolve';
import { connect, reachLines } from './common';

export const HELP = `Usage: spout describe SRC [--files DIR]

Shows a deployed source: id, name, component, state, endpoint, timers and configured props
(secrets masked). SRC is the source's id, name slug, or a unique prefix of either.

Options:
  --files DIR   also write the original files of its registry component (the component, its app
                file, common/ modules) under DIR, at their paths in the registry folder; edit them
                and send them back with "spout update SRC --files DIR"
`;

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, { files: { type: 'string' } }, HELP);
  if (!args) return;
  const ref = args.atMost(1).required(0, 'the source to describe (spout describe SRC)');
  const client = connect(args);
  const source = await resolveSource(client, ref);
  let component: ComponentView | null = null;
  try {
    component = (await client.get<{ data: ComponentView }>(`/v1/components/${source.component_id}`)).data;
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404) throw err;
  }
  const filesDir = args.string('files');
  if (filesDir !== undefined) {
    const { data: read } = await client.get<{ data: SourceView }>(`/v1/sources/${source.id}`);
    if (!read.files) throw new Error(`${source.id} keeps no original files (${read.code_is_bundle ? 'deployed from the registry before Spout kept them: deploy the registry key again to get them' : 'its code is one file'}); "spout describe ${ref} --json" gives its code`);
    writeComponentFiles(filesDir, read.files);
    if (!args.globals.json) out(`Wrote ${read.files.length} files under ${filesDir} (the component: ${read.entry_file})`);
  }
  if (args.globals.json) return printJson({ ...source, component });
  out(source.name === source.name_slug ? bold(source.name) : `${bold(source.name)} ${dim(`(${source.name_slug})`)}`);
  out(`  id:         ${source.id}`);
  out(`  component:  ${component ? `${component.key ?? component.id} ${component.version}${component.key ? ` (${component.id})` : ''}` : source.component_id}`);
  if (component?.description) out(`              ${component.description}`);
  out(`  state:      ${source.active ? 'active' : 'inactive'}`);
  out(`  created:    ${dateTime(source.created_at)}, updated ${dateTime(source.updated_at)}`);
  if (source.timeout_seconds) out(`  timeout:    ${source.timeout_seconds} s`);
  for (const line of reachLines(source)) out(`  ${line}`);
  const props = component?.configurable_props ?? [];
  const values = source.configured_props;
  if (props.length) {
    out('  props:');
    for (const p of props) {
      if (p.type === '$.interface.http' || p.type === '$.interface.timer') continue;
      const value = p.name in values ? JSON.stringify(values[p.name]) : dim(p.default !== undefined ? `default ${JSON.stringify(p.default)}` : 'not set');
      out(`    ${p.name} ${dim(`(${p.type})`)}: ${value}`);
    }
  }
}
