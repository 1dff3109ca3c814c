// The host side of the prop kinds: what `this.<prop>` becomes inside the component host, by type.
// It runs in the host process, so it imports only the kinds' binding files (no service code, no
// module the host's permission model forbids); the kinds themselves are in prop-kinds.ts.

import { bindApp } from './app/app-prop';
import { bindDataStore } from './data-store/data-store-binding';
import { bindDb } from './db/db-binding';
import { bindDir } from './dir/dir-binding';
import { bindHttpInterface } from './http-interface/http-interface-binding';
import { bindHttpRequest } from './http-request/http-request-binding';
import { type BindingHost, configuredValue, type PropBinding } from './shared/kind-interface';

/** Types whose `this.<prop>` is not simply the configured value (or the default). */
export const PROP_BINDINGS = new Map<string, PropBinding>([
  ['app', bindApp],
  ['$.interface.http', bindHttpInterface],
  ['$.service.db', bindDb],
  ['data_store', bindDataStore],
  ['http_request', bindHttpRequest],
  ['dir', bindDir],
]);

/** What `this.<name>` is for a prop declared as `def` (its propDefinition merged in). */
export function bindProp(name: string, def: Record<string, unknown>, host: BindingHost): unknown {
  const bind = (typeof def.type === 'string' ? PROP_BINDINGS.get(def.type) : undefined) ?? configuredValue;
  return bind(name, def, host);
}
