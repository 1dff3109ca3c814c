// Every input of the Connect API, as `@pipedream/sdk` sends it (query strings for lists, JSON
// bodies for the rest); a mismatch is a 400 naming each field.
import { z } from 'zod';
import { booleanParam, objectParam } from '../api/params';

const limit = z.coerce.number().int().min(1).max(100).default(10);
const cursor = z.string().min(1).optional();
export const connectPageSchema = z.object({ limit, after: cursor, before: cursor });

const externalUserId = z.string().min(1, 'external_user_id: name the end user').max(250);

/** Configured props; options chosen with their labels (`{"__lv": …}`) are read by each prop's rules (props/shared/labeled-values.ts). */
const configuredProps = objectParam.optional();

export const appsListSchema = connectPageSchema.extend({
  q: z.string().optional(),
  sort_key: z.enum(['name', 'name_slug', 'featured_weight']).optional(),
  sort_direction: z.enum(['asc', 'desc']).optional(),
  category_ids: z.union([z.string(), z.array(z.string())]).optional(),
  has_components: booleanParam.optional(),
  has_actions: booleanParam.optional(),
  has_triggers: booleanParam.optional(),
});

export const componentsListSchema = connectPageSchema.extend({
  q: z.string().optional(),
  app: z.string().min(1).optional(),
  registry: z.enum(['public', 'private', 'all']).optional(),
  component_type: z.enum(['trigger', 'action']).optional(),
});

/** `version` of a retrieve: Spout runs the registry's current file, so only that version is known. */
export const retrieveSchema = z.object({ version: z.string().optional() });

const componentCall = {
  id: z.string().min(1, 'id: give a component key such as "http-send-request"'),
  version: z.string().optional(),
  external_user_id: externalUserId.optional(),
  configured_props: configuredProps,
  dynamic_props_id: z.string().optional(),
  blocking: z.boolean().optional(),
};

export const configurePropSchema = z.object({
  ...componentCall,
  prop_name: z.string().min(1),
  page: z.number().int().min(0).optional(),
  prev_context: z.record(z.string(), z.unknown()).nullable().optional(),
  query: z.string().max(10_000).optional(),
});

export const reloadPropsSchema = z.object(componentCall);

export const runActionSchema = z.object({
  ...componentCall,
  stash_id: z.union([z.string(), z.boolean()]).nullable().optional(),
});

const webhookUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as http://127.0.0.1:9000/hook' });

export const deployTriggerSchema = z.object({
  ...componentCall,
  webhook_url: webhookUrl.optional(),
  workflow_id: z.string().optional(),
  emit_on_deploy: z.boolean().optional(),
});

export const ownerQuerySchema = z.object({ external_user_id: externalUserId.optional() });

export const triggersListSchema = connectPageSchema.extend({
  external_user_id: externalUserId.optional(),
  emitter_type: z.enum(['email', 'http', 'source', 'timer']).optional(),
});

export const updateTriggerSchema = z.object({
  external_user_id: externalUserId.optional(),
  active: z.boolean().optional(),
  configured_props: configuredProps,
  name: z.string().min(1).max(200).optional(),
  emit_on_deploy: z.boolean().optional(),
});

export const deleteTriggerSchema = ownerQuerySchema.extend({ ignore_hook_errors: booleanParam.optional() });

export const listEventsSchema = ownerQuerySchema.extend({ n: z.coerce.number().int().min(1).max(100).default(20) });

export const updateWebhooksSchema = z.object({ external_user_id: externalUserId.optional(), webhook_urls: z.array(webhookUrl).max(20) });

export const updateWorkflowsSchema = z.object({ external_user_id: externalUserId.optional(), workflow_ids: z.array(z.string().min(1)).max(20) });

export const accountsListSchema = connectPageSchema.extend({
  external_user_id: externalUserId.optional(),
  oauth_app_id: z.string().optional(),
  app: z.string().min(1).optional(),
  include_credentials: booleanParam.optional(),
});

export const accountQuerySchema = z.object({ include_credentials: booleanParam.optional(), app: z.string().min(1).optional() });

export const createAccountSchema = z.object({
  external_user_id: externalUserId.optional(),
  app_slug: z.string().regex(/^[a-z0-9_]+(?:[-_][a-z0-9]+)*$/, 'must be an app name slug such as "github"'),
  cfmap_json: z.string().min(2, 'cfmap_json: the account fields as JSON text, e.g. "{\\"api_key\\":\\"…\\"}"'),
  connect_token: z.string().min(1),
  name: z.string().min(1).max(200).optional(),
  account_id: z.string().optional(),
  app_override_id: z.string().optional(),
});

export const usersListSchema = connectPageSchema.extend({ q: z.string().optional() });

export const createTokenSchema = z.object({
  external_user_id: externalUserId,
  allowed_origins: z
    .array(z.url({ error: 'each allowed origin is an origin such as http://localhost:3000' }))
    .max(20)
    .optional(),
  error_redirect_uri: z.url().optional(),
  success_redirect_uri: z.url().optional(),
  webhook_uri: webhookUrl.optional(),
  expires_in: z
    .number()
    .int()
    .min(1)
    .max(4 * 3600)
    .optional(),
  scope: z.string().optional(),
  allow_progressive_scopes: z.boolean().optional(),
  app_id: z.string().optional(),
  oauth_app_id: z.string().optional(),
});

export const validateTokenSchema = z.object({ app_id: z.string().optional(), account_id: z.string().optional(), oauth_app_id: z.string().optional(), app_override_id: z.string().optional() });

export const oauthTokenSchema = z.object({
  grant_type: z.literal('client_credentials', { error: 'grant_type: only client_credentials is supported' }).default('client_credentials'),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  scope: z.string().optional(),
});

export const createProjectSchema = z.object({
  name: z.string().min(1).max(200),
  app_name: z.string().max(200).optional(),
  support_email: z.string().max(200).optional(),
  connect_require_key_auth_test: z.boolean().optional(),
  /** Spout's own: end users (Connect tokens) may point webhooks at this machine (docs/security.md). */
  allow_local_targets: z.boolean().optional(),
});

export const updateProjectSchema = createProjectSchema.partial();

export const proxyQuerySchema = z.object({
  external_user_id: externalUserId.optional(),
  account_id: z.string().min(1, 'account_id: the account whose credentials the request carries'),
  /** Spout's own: how the call is served (docs/connect.md); default live. */
  network_mode: z.enum(['live', 'record', 'replay', 'replay-or-live']).optional(),
});

export const setProjectWebhookSchema = z.object({ url: webhookUrl });
