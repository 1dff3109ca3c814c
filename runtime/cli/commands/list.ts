import type { RegistryComponent, RegistryProblem } from '../../components/registry';
import type { ComponentView } from '../../contract/component-api';
import type { SourceView } from '../../contract/source-api';
import type { SubscriptionView, WebhookView } from '../../contract/webhook-api';
import { parse } from '../support/args';
import { dateTime, dim, note, out, printJson, table, yellow } from '../support/output';
import { UsageError } from '../support/usage';
import { connect, endpoints } from './common';

export const HELP = `Usage: spout list sources|components|webhooks|subscriptions [--registry]

Lists deployed sources, saved components (with --registry: the components of the local registry,
bundled and from --registry folders), webhooks, or subscriptions. With --json, a JSON array of the
items as the API returns them.

Options:
  --registry           with "components": list the local registry instead of saved components
  --type source|action with "components": only that type
`;

const KINDS = ['sources', 'components', 'webhooks', 'subscriptions', 'registry'];

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, { registry: { type: 'boolean' }, type: { type: 'string' } }, HELP);
  if (!args) return;
  const kind = args.atMost(1).required(0, 'what to list: sources, components, webhooks or subscriptions');
  if (!KINDS.includes(kind)) throw new UsageError(`cannot list "${kind}"; give sources, components, webhooks or subscriptions`);
  const type = args.string('type');
  if (type !== undefined && type !== 'source' && type !== 'action') throw new UsageError(`--type: give source or action, not "${type}"`);
  const client = connect(args);
  const json = args.globals.json;

  if (kind === 'registry' || (kind === 'components' && args.flag('registry'))) {
    const items = await client.all<RegistryComponent>('/v1/components/registry', { type });
    const { errors, pending } = await client.get<{ errors: RegistryProblem[]; pending: number }>('/v1/components/registry', { limit: 1 });
    for (const p of errors) note(yellow(`registry: ${p.folder}/${p.path} is not indexed: ${p.errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ')}`, process.stderr));
    if (pending) note(dim(`registry: ${pending} files are still being indexed; list again to see them`, process.stderr));
    if (json) return printJson(items);
    if (!items.length) return out('The registry is empty.');
    return out(
      table(
        ['KEY', 'TYPE', 'VERSION', 'NAME', 'FROM'],
        items.map((c) => [c.key, c.type, c.version, c.name, c.bundled ? 'bundled' : c.folder]),
      ),
    );
  }
  if (kind === 'sources') {
    const items = await client.all<SourceView>('/v1/users/me/sources');
    if (json) return printJson(items);
    if (!items.length) return out('No sources deployed. "spout deploy FILE|KEY|URL" or "spout dev FILE" deploys one.');
    return out(
      table(
        ['ID', 'NAME', 'COMPONENT', 'STATE', 'HOST', 'ENDPOINT / TIMER'],
        items.map((s) => {
          const timers = Object.values(s.timers ?? {}).map((t) => ('cron' in t.schedule ? `cron ${t.schedule.cron}` : `every ${t.schedule.intervalSeconds} s`));
          return [s.id, s.name_slug, s.component_key ?? s.component_id, s.active ? 'active' : 'inactive', s.host ?? '-', [...endpoints(s).map((e) => e.url), ...timers].join(', ')];
        }),
      ),
    );
  }
  if (kind === 'components') {
    const items = (await client.all<ComponentView>('/v1/users/me/components')).filter((c) => !type || c.type === type);
    if (json) return printJson(items);
    if (!items.length) return out('No saved components. "spout publish FILE" saves one; "spout list components --registry" lists the registry.');
    return out(
      table(
        ['ID', 'KEY', 'TYPE', 'VERSION', 'NAME', 'SAVED'],
        items.map((c) => [c.id, c.key ?? '-', c.type, c.version, c.name, dateTime(c.created_at)]),
      ),
    );
  }
  if (kind === 'webhooks') {
    const items = await client.all<WebhookView>('/v1/users/me/webhooks');
    if (json) return printJson(items);
    if (!items.length) return out('No webhooks. "spout webhooks create URL" creates one.');
    return out(
      table(
        ['ID', 'NAME', 'URL', 'STATE'],
        items.map((w) => [w.id, w.name, w.url, `${w.active ? 'active' : `disabled${w.disabled_reason ? ` (${w.disabled_reason})` : ''}`}${w.paused ? ', paused' : ''}`]),
      ),
    );
  }
  const items = await client.all<SubscriptionView>('/v1/users/me/subscriptions');
  if (json) return printJson(items);
  if (!items.length) return out('No subscriptions. "spout subscriptions create SRC WEBHOOK" creates one.');
  return out(
    table(
      ['ID', 'EMITTER', 'LISTENER', 'CHANNEL'],
      items.map((s) => [s.id, s.emitter_id, s.listener_id, s.event_name ?? dim('(default)')]),
    ),
  );
}
