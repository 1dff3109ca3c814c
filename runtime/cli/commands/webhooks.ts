import type { WebhookView } from '../../contract/webhook-api';
import { parse } from '../support/args';
import { bold, out, printJson } from '../support/output';
import { resolveWebhook } from '../support/resolve';
import { UsageError } from '../support/usage';
import { connect } from './common';
import { run as list } from './list';

export const HELP = `Usage: spout webhooks create URL [--name NAME] [--description TEXT]
       spout webhooks list
       spout webhooks delete WEBHOOK

Webhooks receive the events of the sources subscribed to them ("spout subscriptions create"),
signed with Standard Webhooks headers. "create" prints the signing secret once. WEBHOOK is an id
(wh_…), a unique prefix of one, or a webhook's name. Deleting a webhook deletes its subscriptions.

Options:
  --url URL            the URL (instead of the positional URL)
  --name NAME          a name for your reference (default: the URL)
  --description TEXT   a longer description
`;

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, { url: { type: 'string' }, name: { type: 'string' }, description: { type: 'string' } }, HELP);
  if (!args) return;
  const action = args.required(0, 'what to do: create, list or delete (spout webhooks --help)');
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
  throw new UsageError(`unknown webhooks action "${action}"; give create, list or delete`);
}
