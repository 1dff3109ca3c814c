import { parse } from '../support/args';
import { out, printJson } from '../support/output';
import { resolveSource } from '../support/resolve';
import { connect } from './common';

export const HELP = `Usage: spout delete SRC

Deletes a deployed source: its deactivate() hook runs, then the source, its events, logs, this.db
and subscriptions are removed. SRC is the source's id, name slug, or a unique prefix of either.
`;

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, {}, HELP);
  if (!args) return;
  const ref = args.atMost(1).required(0, 'the source to delete (spout delete SRC)');
  const client = connect(args);
  const source = await resolveSource(client, ref);
  await client.delete(`/v1/sources/${source.id}`);
  if (args.globals.json) return printJson({ deleted: source.id, name_slug: source.name_slug });
  out(`Deleted ${source.id} (${source.name_slug})`);
}
