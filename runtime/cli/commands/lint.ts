import fs from 'node:fs';
import type { LintResult } from '../../components/library';
import { parse } from '../support/args';
import { BundleError, bundle } from '../support/component-file';
import { bold, green, note, out, printJson, red, yellow } from '../support/output';
import { UsageError } from '../support/usage';
import { connect } from './common';

export const HELP = `Usage: spout lint FILE [--strict]

Checks a component file as the service would load it, without saving it: errors (it cannot run)
and warnings (a rule of the spec or of the registry that Pipedream tolerates, such as a default on
a required prop). Exit status 1 when there are errors, or with --strict when there are warnings too
(for components to publish to a registry).

Options:
  --strict   warnings fail too
`;

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, { strict: { type: 'boolean' } }, HELP);
  if (!args) return;
  const file = args.atMost(1).required(0, 'the component file to check (spout lint FILE)');
  if (!fs.existsSync(file)) throw new UsageError(`${file}: no such file`);
  let result: LintResult;
  try {
    const bundled = await bundle(file);
    const client = connect(args);
    result = (await client.post<{ data: LintResult }>('/v1/components/lint', { component_code: bundled.code, component_filename: bundled.filename })).data;
  } catch (err) {
    if (!(err instanceof BundleError)) throw err;
    result = { errors: err.problems.map((message) => ({ path: '', message })), warnings: [], component: null };
  }
  const strict = args.flag('strict');
  const failed = result.errors.length > 0 || (strict && result.warnings.length > 0);
  if (args.globals.json) printJson(result);
  else {
    for (const e of result.errors) out(`${red('error')}: ${e.path ? `${e.path}: ` : ''}${e.message}`);
    for (const w of result.warnings) out(`${yellow('warning')}: ${w.path ? `${w.path}: ` : ''}${w.message}`);
    const what = result.component ? `${bold(result.component.key ?? result.component.name)} ${result.component.version} (${result.component.type})` : file;
    const counts = `${result.errors.length} error${result.errors.length === 1 ? '' : 's'}, ${result.warnings.length} warning${result.warnings.length === 1 ? '' : 's'}`;
    if (failed) note(`${file}: ${counts}${strict && result.errors.length === 0 ? ' (--strict: warnings fail)' : ''}`);
    else out(`${green('ok')} ${what}: ${counts}`);
  }
  if (failed) process.exitCode = 1;
}
