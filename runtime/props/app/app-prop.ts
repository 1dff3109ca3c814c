// App props (`type: "app"`): a connected account's credentials become `$auth`, and the app's
// methods are bound to the app instance, so `this.$auth` and sibling methods work inside them even
// when registry code passes a method on detached (`resourceFn: this.app.listItems`).
import type { ConfigurableProp } from '../../contract/component-shape';
import { bindMethods } from '../../lib/bind-methods';
import type { PropBinding } from '../shared/kind-interface';

/** The configured value of an app prop: which connected account it uses. */
export interface AppPropValue {
  authProvisionId: string;
}

/** The credentials of connected accounts, by id, with the app each belongs to. */
export type AccountLookup = (id: string) => { app: string } | undefined;

/**
 * Apps that have no credentials on Pipedream (their components connect nothing): an app prop of
 * theirs without an account is what the registry expects, not worth a warning.
 */
const KEYLESS_APPS = new Set(['http', 'helper_functions', 'schedule', 'data_stores', 'formatting', 'pipedream', 'pipedream_utils', 'node', 'python', 'email', 'emit', 'sse', 'rss', 'filter', 'delay', 'go', 'bash']);

/** Whether an app prop's configured value names no account (the prop is then used without credentials: `$auth` is `{}`). */
export function noAccount(value: unknown): boolean {
  return value === undefined || value === null;
}

/** Checks an app prop's configured value; returns a problem or null. No value is no problem: offline, a component may run before an account is connected. */
export function appPropProblem(prop: ConfigurableProp, value: unknown, account: AccountLookup): string | null {
  if (noAccount(value)) return null;
  const id = typeof value === 'object' && value !== null ? (value as Partial<AppPropValue>).authProvisionId : undefined;
  if (typeof id !== 'string') return `prop \`${prop.name}\` takes {"authProvisionId": "apn_…"}, the id of a connected account (POST /v1/accounts)`;
  const found = account(id);
  if (!found) return `prop \`${prop.name}\`: no connected account ${id}; create one with POST /v1/accounts`;
  if (prop.app && found.app !== prop.app) return `prop \`${prop.name}\`: account ${id} is for app "${found.app}", not "${prop.app}"`;
  return null;
}

/** Warnings for app props left without an account, except for apps that have no credentials. */
export function appAccountWarnings(props: readonly ConfigurableProp[], configured: Record<string, unknown>): Array<{ path: string; message: string }> {
  return props
    .filter((p) => p.type === 'app' && noAccount(configured[p.name]) && !KEYLESS_APPS.has(String(p.app ?? '')))
    .map((p) => ({
      path: `configured_props.${p.name}`,
      message: `prop \`${p.name}\` has no connected account, so this.${p.name}.$auth is empty and calls to ${String(p.app)} will not authenticate; connect one (POST /v1/accounts) and give {"authProvisionId": "apn_…"}`,
    }));
}

/** The object `this.<appProp>` is inside the sandbox: the app's fields and methods, plus `$auth`. */
export function appInstance(app: Record<string, unknown>, auth: Record<string, unknown>): Record<string, unknown> {
  const self: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(app)) if (key !== 'methods' && key !== 'propDefinitions') self[key] = value;
  const methods = (app.methods ?? {}) as Record<string, unknown>;
  self.$auth = auth;
  bindMethods(self, methods);
  return self;
}

/** `this.<app prop>`: the app with the connected account's credentials as `$auth` (`{}` without one). */
export const bindApp: PropBinding = (name, def, host) => appInstance(def, host.context.auth[name] ?? {});
