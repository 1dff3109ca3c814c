import type { ActionRunView } from '../../contract/action-api';
import { parse } from '../support/args';
import { classify } from '../support/component-file';
import { bold, dim, out, printJson, printWarnings, red } from '../support/output';
import { completeProps, type Prop, parseObjectOption, parsePropsOption } from '../support/prop-prompts';
import { UsageError } from '../support/usage';
import { connect, NETWORK_MODES } from './common';
import { deployable } from './deploy';

export const HELP = `Usage: spout run-action FILE|KEY|URL [--props JSON|@FILE] [--steps JSON|@FILE] [--network MODE]

Runs an action once, as a test run ($.context.JIT is true), and prints what it logged, exported
(its $summary first) and returned. A step ending with $.flow.exit prints the reason. Exits 1 when
the action threw.

Options:
  --props JSON|@FILE   configured prop values; missing ones are asked for on a terminal
  --steps JSON|@FILE   the steps object the action receives, e.g. '{"trigger":{"event":{"id":1}}}'
  --network MODE       how its outgoing HTTP calls are served: live (default), record (saved to
                       the action's cassette), replay (answered from it), replay-or-live

Examples:
  spout run-action formatting-format-text --props '{"text":"hello","operation":"uppercase"}'
  spout run-action ./actions/create-ticket.mjs --props @props.json
`;

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, { props: { type: 'string' }, steps: { type: 'string' }, network: { type: 'string' } }, HELP);
  if (!args) return;
  const ref = args.atMost(1).required(0, 'the action to run: a file, a registry key, or a URL of raw code');
  const given = parsePropsOption(args.string('props')) ?? {};
  const steps = parseObjectOption('--steps', args.string('steps'), '{"trigger":{"event":{}}}') ?? {};
  const network = args.string('network');
  if (network !== undefined && !NETWORK_MODES.includes(network)) throw new UsageError(`--network: "${network}" is not a mode; give one of ${NETWORK_MODES.join(', ')}`);
  const client = connect(args);
  const found = await deployable(client, classify(ref));
  if (found.component.type !== 'action') throw new Error(`${found.label} is a source; sources are deployed ("spout deploy ${ref}"), actions are run`);
  const configured = await completeProps(client, found.ref, found.component.configurable_props as Prop[], given);
  const result = await client.post<ActionRunView>('/v1/actions/run', { id: found.ref, configured_props: configured, steps, ...(network ? { network_mode: network } : {}) });
  printWarnings(result.warnings);
  if (result.error) process.exitCode = 1;
  if (args.globals.json) return printJson(result);
  for (const line of result.os) out(dim(`[${line.level}] `) + line.message);
  const { $summary, ...exports } = result.exports;
  if ($summary !== undefined) out(`${bold('Summary:')} ${String($summary)}`);
  for (const [name, value] of Object.entries(exports)) out(`${bold(`${name}:`)} ${JSON.stringify(value)}`);
  for (const send of result.sends) out(dim(`$.send.${send.kind}: ${JSON.stringify(send.result ?? send.config)}`));
  if (result.response) out(`${bold('Responded:')} ${result.response.status} ${result.response.body ?? ''}`);
  if (result.error) out(`${red('failed')} ${result.error.name}: ${result.error.message}`);
  else if (result.exit) out(`${bold('Exited:')} ${result.exit.reason ?? '(no reason given)'}`);
  else out(`${bold('Returned:')} ${JSON.stringify(result.ret)}`);
}
