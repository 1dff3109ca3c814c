import type { ComponentView, Warning } from '../../contract/component-api';
import type { SourceView } from '../../contract/source-api';
import { parse } from '../support/args';
import { bundle } from '../support/component-file';
import { readComponentFiles } from '../support/component-files';
import { bold, out, printJson, printWarnings } from '../support/output';
import { keptValues, type Prop, parsePropsOption } from '../support/prop-prompts';
import { resolveSource } from '../support/resolve';
import { UsageError } from '../support/usage';
import { connect, GRANT_HELP, GRANT_OPTIONS, grantsOption, NETWORK_MODES, reachLines } from './common';

export const HELP = `Usage: spout update SRC [--code FILE|URL | --files DIR] [--name NAME] [--props JSON|@FILE] [--allow-read PATH] [--allow-write PATH] [--network MODE] [--activate|--deactivate]

Updates a deployed source in place (same dc_ id, endpoint and this.db): its code, name, configured
props, or whether it is active. SRC is the source's id, name slug, or a unique prefix of either.

Options:
  --code FILE|URL      new code: a component file (relative imports bundled in) or a URL of raw code
  --files DIR          new code: every file under DIR as its original files (the folder
                       "spout describe SRC --files DIR" wrote), bundled by the service
  --name NAME          a new name (the name slug follows)
  --props JSON|@FILE   prop values, merged into the current ones (secrets you leave out are kept)
${GRANT_HELP}                       (given, these replace the folders granted before)
  --network MODE       how its outgoing HTTP calls are served: live, record (saved to its
                       cassette), replay (answered from it), replay-or-live
  --activate           activate the source (its timers and endpoint run it again)
  --deactivate         deactivate it (timers stop, the endpoint answers without running it)
`;

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, { code: { type: 'string' }, files: { type: 'string' }, name: { type: 'string' }, props: { type: 'string' }, activate: { type: 'boolean' }, deactivate: { type: 'boolean' }, network: { type: 'string' }, ...GRANT_OPTIONS }, HELP);
  if (!args) return;
  const ref = args.atMost(1).required(0, 'the source to update (spout update SRC …)');
  if (args.flag('activate') && args.flag('deactivate')) throw new UsageError('give --activate or --deactivate, not both');
  const given = parsePropsOption(args.string('props'));
  const code = args.string('code');
  const filesDir = args.string('files');
  if (code !== undefined && filesDir !== undefined) throw new UsageError('give --code or --files, not both');
  const name = args.string('name');
  const permissions = grantsOption(args);
  const network = args.string('network');
  if (network !== undefined && !NETWORK_MODES.includes(network)) throw new UsageError(`--network: "${network}" is not a mode; give one of ${NETWORK_MODES.join(', ')}`);
  if (code === undefined && filesDir === undefined && name === undefined && given === undefined && permissions === undefined && network === undefined && !args.flag('activate') && !args.flag('deactivate')) {
    throw new UsageError('nothing to update; give --code, --files, --name, --props, --allow-read/--allow-write, --network, --activate or --deactivate');
  }
  const client = connect(args);
  const source = await resolveSource(client, ref);
  const body: Record<string, unknown> = {};
  if (code !== undefined) {
    if (/^https?:\/\//i.test(code)) body.component_url = code;
    else {
      const bundled = await bundle(code);
      body.component_code = bundled.code;
      body.component_filename = bundled.filename;
    }
  }
  if (filesDir !== undefined) body.files = readComponentFiles(filesDir);
  if (name !== undefined) body.name = name;
  if (permissions) body.permissions = permissions;
  if (network !== undefined) body.network_mode = network;
  if (args.flag('activate')) body.active = true;
  if (args.flag('deactivate')) body.active = false;
  if (given) {
    const { data: component } = await client.get<{ data: ComponentView }>(`/v1/components/${source.component_id}`);
    body.configured_props = { ...keptValues(component.configurable_props as Prop[], source.configured_props), ...given };
  }
  const { data, warnings } = await client.put<{ data: SourceView; warnings?: Warning[] }>(`/v1/sources/${source.id}`, body);
  printWarnings(warnings);
  if (args.globals.json) return printJson(data);
  out(`Updated ${bold(data.id)} (${data.name_slug})${data.active ? '' : ', inactive'}`);
  for (const line of reachLines(data)) out(line);
}
