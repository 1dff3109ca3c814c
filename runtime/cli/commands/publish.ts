import fs from 'node:fs';
import { parse } from '../support/args';
import { saveFile } from '../support/component-file';
import { bold, dim, out, printJson, printWarnings } from '../support/output';
import { UsageError } from '../support/usage';
import { connect } from './common';

export const HELP = `Usage: spout publish FILE

Saves a component (typically an action) so that it can be used by key or id: the service validates
it and keeps it as a saved component (sc_…). Its relative imports are bundled in. Publishing the
same code again is a no-op; new code makes a new version under the same key.
`;

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, {}, HELP);
  if (!args) return;
  const file = args.atMost(1).required(0, 'the component file to publish (spout publish FILE)');
  if (!fs.existsSync(file)) throw new UsageError(`${file}: no such file`);
  const client = connect(args);
  const { component } = await saveFile(client, file);
  printWarnings(component.warnings);
  if (args.globals.json) return printJson(component);
  out(`Published ${bold(component.key ?? component.name)} ${component.version} (${component.type}, ${component.id})`);
  if (component.type === 'source') out(dim(`Sources run once deployed: "spout deploy ${component.key ?? file}"`));
}
