import type { SignInLinkView } from '../../contract/settings-api';
import { parse } from '../support/args';
import { dim, out, printJson } from '../support/output';
import { connect } from './common';

export const HELP = `Usage: spout ui

Prints a new link that signs a browser in to the running service's UI. Each link works once,
within an hour, and never contains the API key (docs/security.md): the one \`spout serve\`
printed at start is spent once opened, and this command asks the service, with the API key,
for another.
`;

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, {}, HELP);
  if (!args) return;
  args.atMost(0);
  const { data } = await connect(args).post<{ data: SignInLinkView }>('/v1/ui/sign-in-links', {});
  if (args.globals.json) return printJson(data);
  out(`UI: ${data.url}`);
  out(dim(`signs in one browser, once, until ${data.expires_at}`));
}
