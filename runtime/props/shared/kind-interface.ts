// What one prop kind (a folder of props/) declares: the service side registered in
// props/prop-kinds.ts, the host side in props/prop-bindings.ts. See docs/runtime.md, "Adding a
// prop kind".
import type { ConfigurableProp, PropShape } from '../../contract/component-shape';
import type { HostCall, SandboxContext } from '../../contract/host-protocol';
import { defaultValue } from './labeled-values';

/** Records a problem on one field of the prop being checked: an error, or a warning (a rule Pipedream tolerates). */
export type Report = (field: string, message: string, level?: 'warning') => void;

/** What value checks may look up in the service's records. */
export interface ValueLookups {
  /** The connected account of an id, with the app it belongs to. */
  account(id: string): { app: string } | undefined;
  dataStoreExists(id: string): boolean;
}

/** What a value check decided: the value to keep, a problem naming the prop and the fix, or null (nothing to keep). */
export type ValueOutcome = { value: unknown } | { problem: string } | null;

/** The service side of one kind of prop: what a component may declare and what a user may configure. */
export interface PropKind {
  /** The folder under props/ that holds it. */
  name: string;
  /** The prop types it covers, as a component writes them (array forms included). */
  types: readonly string[];
  /** Types it covers by their shape rather than their name (Pipedream's app-specific types). */
  matches?(type: string): boolean;
  /** The one component type it belongs in (the spec's rule); in the other it is a warning. */
  onlyIn?: 'source' | 'action';
  /** What happens in the other component type, for that warning; default: it is ignored. */
  elsewhere?: string;
  /** Whether `additionalProps` may return it; other kinds work there, with a warning. */
  dynamic?: boolean;
  /** Its `default` is its configuration (a schedule, a request), not a prefilled value: allowed on required props. */
  defaultIsConfig?: boolean;
  /** A warning on the type itself, for what does not happen offline. */
  typeNote?(type: string): string;
  /** Its values are picked from options: with `withLabel: true` a value is kept with its label (`{label, value}`, shared/labeled-values.ts). */
  labeled?: boolean;
  /** Its values are not checked offline: the type's other rules (secret, bounds, its own fields) are skipped. */
  unchecked?: boolean;
  /** Checks the fields only this kind has; `type` is the prop's own. */
  checkDefinition?(prop: PropShape, type: string, report: Report): void;
  /** Checks a configured value (undefined or null when none is given); without it, configured values are dropped. */
  checkValue?(prop: ConfigurableProp, value: unknown, lookups: ValueLookups): ValueOutcome;
  /** What a form asks for when the prop is required and empty ("choose a data store"); undefined: the default wording. */
  askFor?(prop: ConfigurableProp): string | undefined;
}

/** The object `this.db` is (`$.service.db`). */
export interface DbApi {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
}

/** What a binding may use inside the component host. */
export interface BindingHost {
  /** What the service configured: values, connected accounts, endpoints, folders. */
  context: SandboxContext;
  /** The source's `$.service.db`, a copy kept by the host. */
  db: DbApi;
  /** Answers the HTTP request the running invocation handles. */
  respond(response: unknown): unknown;
  /** Sends a request to the service; resolves to its answer. */
  call(request: HostCall): Promise<unknown>;
}

/** What `this.<name>` becomes inside the component host; `def` is the prop as written, its propDefinition merged in. */
export type PropBinding = (name: string, def: Record<string, unknown>, host: BindingHost) => unknown;

/** A prop's configured value, else its default (labeled for a withLabel prop): what `this.<prop>` is unless its kind binds something else. */
export const configuredValue: PropBinding = (name, def, host) => (name in host.context.props ? host.context.props[name] : defaultValue(def));
