import type { ConnectCredentialsView } from '../../contract/connect-api';
import { parse } from '../support/args';
import { bold, dim, out, printJson } from '../support/output';
import { UsageError } from '../support/usage';
import { connect } from './common';

export const HELP = `Usage: spout connect credentials [--rotate]

Spout is also a local Pipedream Connect API (docs/connect.md): point @pipedream/sdk at it with the
base URL, project id and OAuth client credentials this prints, and everything the SDK does works
offline. --rotate replaces the client secret (the old one stops working; access tokens already
handed out keep working until they expire).
`;

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, { rotate: { type: 'boolean' } }, HELP);
  if (!args) return;
  const action = args.atMost(1).required(0, 'what to show: credentials (spout connect --help)');
  if (action !== 'credentials') throw new UsageError(`unknown connect action "${action}"; give credentials`);
  const client = connect(args);
  const { data } = args.flag('rotate')
    ? await client.post<{ data: ConnectCredentialsView }>('/v1/settings/connect/rotate', {})
    : await client.get<{ data: ConnectCredentialsView }>('/v1/settings/connect');
  if (args.globals.json) return printJson(data);
  out(`${bold('Base URL')}        ${data.base_url}`);
  out(`${bold('Project id')}      ${data.project_id}`);
  out(`${bold('Client id')}       ${data.client_id}`);
  out(`${bold('Client secret')}   ${data.client_secret}`);
  out(`${bold('Environment')}     ${data.environment}`);
  out('');
  out(dim('new PipedreamClient({ baseUrl, projectId, clientId, clientSecret, projectEnvironment: "development" })'));
  out(dim(`or the environment: PIPEDREAM_BASE_URL=${data.base_url} PIPEDREAM_PROJECT_ID=${data.project_id} PIPEDREAM_CLIENT_ID=${data.client_id} PIPEDREAM_CLIENT_SECRET=… PIPEDREAM_PROJECT_ENVIRONMENT=development`));
}
