// The one table of prop kinds (service side): component validation (prop-checks.ts), configured
// values (configured-props.ts) and form hints read it. What `this.<prop>` becomes inside the
// component host is the host's own table, prop-bindings.ts. See docs/runtime.md, "Adding a prop kind".

import { alertKind } from './alert/alert-kind';
import { appKind } from './app/app-kind';
import { appSpecificKind } from './app-specific/app-specific-kind';
import { apphookKind } from './apphook/apphook-kind';
import { dataStoreKind } from './data-store/data-store-kind';
import { dbKind } from './db/db-kind';
import { dirKind } from './dir/dir-kind';
import { httpInterfaceKind } from './http-interface/http-interface-kind';
import { httpRequestKind } from './http-request/http-request-kind';
import type { PropKind } from './shared/kind-interface';
import { sqlKind } from './sql/sql-kind';
import { timerKind } from './timer/timer-kind';
import { userInputKind } from './user-input/user-input-kind';

/** Every kind, in the order their types are listed to users. */
export const PROP_KINDS: PropKind[] = [appKind, userInputKind, httpInterfaceKind, timerKind, dbKind, dataStoreKind, httpRequestKind, alertKind, dirKind, sqlKind, apphookKind, appSpecificKind];

/** The kind a prop type belongs to; undefined for a type that is not a prop type. */
export function kindOf(type: string): PropKind | undefined {
  return PROP_KINDS.find((kind) => kind.types.includes(type) || kind.matches?.(type));
}

/** Every prop type written by name, in table order. */
export function propTypes(): string[] {
  return PROP_KINDS.flatMap((kind) => kind.types);
}
