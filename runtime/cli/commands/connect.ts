import { type ConnectCredentialsView, connectEnvironment } from '../../contract/connect-api';
import { parse } from '../support/args';
import { bold, dim, out, printJson } from '../support/output';
import { UsageError } from '../support/usage';
import { connect } from './common';

export const HELP = `Usage: spout connect credentials [--rotate] [--env]

Spout is also a local Pipedream Connect API (docs/connect.md): point @pipedream/sdk at it with the
base URL, project id and OAuth client credentials this prints, and everything the SDK does works
offline. --rotate replaces the client secret (the old one stops working; access tokens already
handed out keep working until they expire). --env prints them as the PIPEDREAM_* variables the
SDK reads, for eval "$(spout connect credentials --env)".
`;

/** Quotes a value for a POSIX shell. */
const shell = (v: string) => `'${v.replace(/'/g, "'\\''")}'`;

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, { rotate: { type: 'boolean' }, env: { type: 'boolean' } }, HELP);
  if (!args) return;
  const action = args.atMost(1).required(0, 'what to show: credentials (spout connect --help)');
  if (action !== 'credentials') throw new UsageError(`unknown connect action "${action}"; give credentials`);
  const client = connect(args);
  const { data } = args.flag('rotate') ? await client.post<{ data: ConnectCredentialsView }>('/v1/settings/connect/rotate', {}) : await client.get<{ data: ConnectCredentialsView }>('/v1/settings/connect');
  if (args.globals.json) return printJson(data);
  if (args.flag('env')) {
    for (const [name, value] of Object.entries(connectEnvironment(data))) out(`export ${name}=${shell(value)}`);
    return;
  }
  out(`${bold('Base URL')}        ${data.base_url}`);
  out(`${bold('Project id')}      ${data.project_id}`);
  out(`${bold('Client id')}       ${data.client_id}`);
  out(`${bold('Client secret')}   ${data.client_secret}`);
  out(`${bold('Environment')}     ${data.environment}`);
  out(`${bold('Local targets')}   ${data.allow_local_targets ? "on: end users' webhooks, accounts and the proxy may reach this machine" : "off: end users' webhooks, accounts and the proxy stay off this machine (docs/security.md)"}`);
  out('');
  out(dim('new PipedreamClient({ baseUrl, projectId, clientId, clientSecret, projectEnvironment: "development" })'));
  out(dim('or set the PIPEDREAM_* variables the SDK reads: eval "$(spout connect credentials --env)"'));
}
