import type { SubscriptionView } from '../../contract/webhook-api';
import type { ApiClient } from '../../remote/api-client';
import { type Args, parse } from '../support/args';
import { out, printJson } from '../support/output';
import { resolveEmitter, resolveListener } from '../support/resolve';
import { UsageError } from '../support/usage';
import { connect } from './common';
import { run as list } from './list';

export const HELP = `Usage: spout subscriptions create EMITTER LISTENER [--event-name NAME]
       spout subscriptions list
       spout subscriptions delete EMITTER LISTENER [--event-name NAME]

A subscription delivers the events an emitter emits to a listener. EMITTER is a source (id, name
slug or unique prefix) or the glob dc_* (every source, including later ones); LISTENER is a
webhook (wh_…, a unique id prefix, or its name) or a source, which then runs with each event.

Options:
  --emitter EMITTER    instead of the first positional
  --listener LISTENER  instead of the second positional
  --event-name NAME    a named channel (e.g. $errors); default: the default channel
`;

async function pair(client: ApiClient, args: Args): Promise<{ emitter_id: string; listener_id: string; event_name?: string }> {
  args.atMost(3);
  const emitter = args.string('emitter') ?? args.positionals[1];
  const listener = args.string('listener') ?? args.positionals[args.string('emitter') !== undefined ? 1 : 2];
  if (!emitter || !listener) throw new UsageError('give the emitter and the listener: spout subscriptions create SRC WEBHOOK');
  const eventName = args.string('event-name');
  return {
    emitter_id: await resolveEmitter(client, emitter),
    listener_id: await resolveListener(client, listener),
    ...(eventName !== undefined ? { event_name: eventName } : {}),
  };
}

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, { emitter: { type: 'string' }, listener: { type: 'string' }, 'event-name': { type: 'string' } }, HELP);
  if (!args) return;
  const action = args.required(0, 'what to do: create, list or delete (spout subscriptions --help)');
  if (action === 'list') return list(['subscriptions', ...argv.filter((a) => a !== action)]);
  if (action !== 'create' && action !== 'delete') throw new UsageError(`unknown subscriptions action "${action}"; give create, list or delete`);
  const client = connect(args);
  const body = await pair(client, args);
  const channel = body.event_name ? ` on channel ${body.event_name}` : '';
  if (action === 'create') {
    const { data } = await client.post<{ data: SubscriptionView }>('/v1/subscriptions', body);
    if (args.globals.json) return printJson(data);
    out(`Subscribed ${data.listener_id} to ${data.emitter_id}${channel} (${data.id})`);
    return;
  }
  await client.request('DELETE', '/v1/subscriptions', { body });
  if (args.globals.json) return printJson({ deleted: body });
  out(`Unsubscribed ${body.listener_id} from ${body.emitter_id}${channel}`);
}
