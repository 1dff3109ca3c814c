import type { SourceView } from '../../contract/source-api';
import type { WebhookView } from '../../contract/webhook-api';
import { slugify } from '../../lib/slug';
import { type ApiClient, ApiError } from '../../remote/api-client';

/**
 * A deployed source by `SRC`: its id, its name slug (or name), the key of the component it runs
 * (`spout deploy http-new-requests` then `spout events http-new-requests`), or a unique prefix of
 * an id or slug. An ambiguous reference is an error listing the matches.
 */
export async function resolveSource(client: ApiClient, ref: string): Promise<SourceView> {
  if (!ref.trim()) throw new Error('give a source: its id (dc_…), name slug, or a unique prefix of either');
  try {
    return (await client.get<{ data: SourceView }>(`/v1/sources/${encodeURIComponent(ref)}`)).data;
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404) throw err;
  }
  const all = await client.all<SourceView>('/v1/users/me/sources');
  const slug = slugify(ref);
  const named = all.filter((s) => s.name === ref || s.name_slug === slug);
  const exact = named.length ? named : all.filter((s) => s.component_key === ref);
  if (exact.length === 1) return exact[0] as SourceView;
  const matches = exact.length > 1 ? exact : all.filter((s) => s.id.startsWith(ref) || s.name_slug.startsWith(ref) || s.name_slug.startsWith(slug));
  if (matches.length === 1) return matches[0] as SourceView;
  if (matches.length === 0) throw new Error(`no source matches "${ref}"; "spout list sources" lists them (give an id, a name slug, a component key, or a unique prefix)`);
  const lines = matches.map((s) => `  ${s.id}  ${s.name_slug}`).join('\n');
  throw new Error(`"${ref}" matches ${matches.length} sources; ${exact.length > 1 ? 'give the id or slug of one' : 'give more of the id or slug'}:\n${lines}`);
}

/** A webhook by id, name, or unique prefix of its id. */
export async function resolveWebhook(client: ApiClient, ref: string): Promise<WebhookView> {
  if (ref.startsWith('wh_')) {
    try {
      return (await client.get<{ data: WebhookView }>(`/v1/webhooks/${encodeURIComponent(ref)}`)).data;
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 404) throw err;
    }
  }
  const all = await client.all<WebhookView>('/v1/users/me/webhooks');
  const named = all.filter((w) => w.name === ref);
  const matches = named.length ? named : all.filter((w) => w.id.startsWith(ref));
  if (matches.length === 1) return matches[0] as WebhookView;
  if (matches.length === 0) throw new Error(`no webhook matches "${ref}"; "spout webhooks list" lists them`);
  throw new Error(`"${ref}" matches ${matches.length} webhooks; give more of the id:\n${matches.map((w) => `  ${w.id}  ${w.name}  ${w.url}`).join('\n')}`);
}

/** An emitter: `dc_*`/`p_*` globs and workflow ids as given, else a source (SRC). */
export async function resolveEmitter(client: ApiClient, ref: string): Promise<string> {
  if (/^(dc|p)_\*$/.test(ref) || ref.startsWith('p_')) return ref;
  return (await resolveSource(client, ref)).id;
}

/** A listener: a webhook (`wh_…`, its name or id prefix), a workflow id, or a source (SRC). */
export async function resolveListener(client: ApiClient, ref: string): Promise<string> {
  if (ref.startsWith('p_')) return ref;
  if (ref.startsWith('wh_')) return (await resolveWebhook(client, ref)).id;
  try {
    return (await resolveSource(client, ref)).id;
  } catch (sourceErr) {
    try {
      return (await resolveWebhook(client, ref)).id;
    } catch {
      throw sourceErr;
    }
  }
}
