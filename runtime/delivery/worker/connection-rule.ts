// The rules of target-policy.ts (docs/security.md, "Delivery targets") applied again to each
// delivery connection, by the address it reached: a host name checked when it was set may resolve
// here later (DNS rebinding).
import { isThisMachine } from '../../lib/local-addresses';

/** What each delivery connection is held to: this service's port, and for a Connect end user's webhook, this machine. */
export interface ConnectionRule {
  /** The port this service listens on (0 while unknown). */
  servicePort: number;
  /** The Connect project whose end user set the webhook, when that project keeps deliveries off this machine; else null. */
  endUserProject: string | null;
}

/**
 * Why a delivery connection that reached `address`:`port` must end before it sends, or null: the
 * rules of target-policy.ts, by the address the name resolved to now (a name checked when it was set may since
 * resolve here: DNS rebinding).
 */
export function refusedConnection(address: string, port: number, rule: ConnectionRule): string | null {
  if (rule.endUserProject === null && port !== rule.servicePort) return null;
  if (!isThisMachine(address)) return null;
  if (port === rule.servicePort) {
    return `refused: the connection reached ${address} port ${port}, this Spout service's own address (rule: no webhook delivers to Spout itself, which would loop). The URL's host name resolves here now; point the webhook at your own receiver, or subscribe a source to another with POST /v1/subscriptions`;
  }
  return `refused: the connection reached ${address}, on the developer's machine (rule: a Connect end user's webhook does not deliver to this machine or a link-local address). The URL's host name resolves here now; use a public URL, or let the project allow it with server credentials (PATCH /v1/connect/projects/${rule.endUserProject} {"allow_local_targets": true})`;
}
