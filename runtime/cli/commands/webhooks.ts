import type { WebhookView } from '../../contract/webhook-api';
import { parse } from '../support/args';
import { bold, out, printJson } from '../support/output';
import { resolveWebhook } from '../support/resolve';
import { UsageError } from '../support/usage';
import { connect } from './common';
import { run as list } from './list';
import { QUEUE_ACTIONS, QUEUE_OPTIONS, runQueueAction } from './webhook-queue';

export const HELP = `Usage: spout webhooks create URL [--name NAME] [--description TEXT]
       spout webhooks list
       spout webhooks delete WEBHOOK
       spout webhooks messages WEBHOOK [--status S] [--source SRC] [--since T] [--until T] [--limit N]
       spout webhooks attempts MESSAGE_ID [--webhook WEBHOOK]
       spout webhooks resend MESSAGE_ID [--webhook WEBHOOK]
       spout webhooks recover WEBHOOK [--status failed|failing] [--source SRC] [--since T] [--until T]
       spout webhooks pause WEBHOOK
       spout webhooks resume WEBHOOK

Webhooks receive the events of the sources subscribed to them ("spout subscriptions create"),
signed with Standard Webhooks headers. "create" prints the signing secret once. WEBHOOK is an id
(wh_…), a unique prefix of one, or a webhook's name. Deleting a webhook deletes its subscriptions.

"messages" lists a webhook's deliveries, newest first; "attempts" a message's attempts; "resend"
makes one more attempt of a message now. "recover" retries every failed message the filters take
(all of them without --since) and prints how many. "pause" holds a webhook's queue: new messages
and retries wait, listed as paused, until "resume" sends them in the order they were created.

Options:
  --url URL            the URL (instead of the positional URL)
  --name NAME          a name for your reference (default: the URL)
  --description TEXT   a longer description
  --status S           pending, delivered, failing, failed or paused (several: failed,failing)
  --source SRC         only messages of this source's events (id, name slug or unique prefix)
  --event-id ID        only the messages of this event
  --channel NAME       only events of this channel ($default: the default channel)
  --since T, --until T created in this range: epoch seconds, an ISO time, or an age (30m, 2h, 1d)
  -n, --limit N        messages to list (default 20, at most 100)
  --webhook WEBHOOK    the message's webhook (found by asking each webhook otherwise)
`;

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, { url: { type: 'string' }, name: { type: 'string' }, description: { type: 'string' }, ...QUEUE_OPTIONS }, HELP);
  if (!args) return;
  const action = args.required(0, `what to do: create, list, delete, ${QUEUE_ACTIONS.join(', ')} (spout webhooks --help)`);
  if (QUEUE_ACTIONS.includes(action)) return runQueueAction(action, args, connect(args));
  const rest = argv.filter((a) => a !== action);
  if (action === 'list') return list(['webhooks', ...rest]);
  const client = () => connect(args);
  if (action === 'create') {
    args.atMost(2);
    const url = args.string('url') ?? args.positionals[1];
    if (!url) throw new UsageError('missing the webhook URL: spout webhooks create URL');
    const { data } = await client().post<{ data: WebhookView }>('/v1/webhooks', {
      url,
      ...(args.string('name') !== undefined ? { name: args.string('name') } : {}),
      ...(args.string('description') !== undefined ? { description: args.string('description') } : {}),
    });
    if (args.globals.json) return printJson(data);
    out(`Created webhook ${bold(data.id)} → ${data.url}`);
    out(`Signing secret: ${data.signing_secret ?? '(not shown)'}`);
    out(`Subscribe a source with: spout subscriptions create SRC ${data.id}`);
    return;
  }
  if (action === 'delete') {
    const ref = args.atMost(2).required(1, 'the webhook to delete (spout webhooks delete WEBHOOK)');
    const c = client();
    const webhook = await resolveWebhook(c, ref);
    await c.delete(`/v1/webhooks/${webhook.id}`);
    if (args.globals.json) return printJson({ deleted: webhook.id });
    out(`Deleted webhook ${webhook.id} (${webhook.url}) and its subscriptions`);
    return;
  }
  throw new UsageError(`unknown webhooks action "${action}"; give create, list, delete, ${QUEUE_ACTIONS.join(', ')}`);
}
