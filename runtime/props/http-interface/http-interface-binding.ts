// Host side of `$.interface.http` props.
import type { PropBinding } from '../shared/kind-interface';

/** `this.<http prop>`: the endpoint's URL and `respond()`, which answers the request being handled. */
export const bindHttpInterface: PropBinding = (name, _def, host) => ({
  endpoint: host.context.endpoints[name],
  respond: (response: unknown) => host.respond(response),
});
