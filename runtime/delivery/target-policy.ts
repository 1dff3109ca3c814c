// Where a webhook may deliver (docs/security.md, "Delivery targets"): never to this service itself,
// whose endpoints would turn the delivery into a run that delivers again, and, for a Connect end
// user, nowhere on the developer's machine unless the project allows it.
import { isThisMachine, portOf } from '../lib/local-addresses';

/** Who sets the target, and what this service is. */
export interface TargetPolicy {
  /** The port this service listens on. */
  servicePort: number;
  /** Set by a Connect end user (a Connect token) whose project does not allow local targets. */
  endUser: boolean;
  /** The URL's host name resolves to this machine (the caller looked it up: lib/local-addresses.ts). */
  resolvesHere?: boolean;
}

/** Why a delivery target is refused: the HTTP status to answer and the message. */
export interface RefusedTarget {
  status: 400 | 403;
  message: string;
}

/** Why `url` may not take deliveries under `policy`, or null when it may. */
export function refusedTarget(url: string, policy: TargetPolicy): RefusedTarget | null {
  const u = new URL(url);
  const here = isThisMachine(u.hostname);
  if (portOf(u) === policy.servicePort && (here || policy.resolvesHere)) {
    return {
      status: 400,
      message: `${url} is this Spout service's own address (port ${policy.servicePort} on this machine): a delivery to its endpoints would run a source whose events are delivered again, in a loop. Deliver to your own receiver, or subscribe a source to another with POST /v1/subscriptions (listener_id: its dc_ id)`,
    };
  }
  if (policy.endUser && (here || policy.resolvesHere)) {
    return {
      status: 403,
      message: `${url} is on the developer's machine (${u.hostname} ${here ? 'is' : 'resolves to'} a loopback, link-local or own address): a Connect token may not send deliveries there. Use a public URL, or let the project allow it with server credentials (PATCH /v1/connect/projects/{project_id} {"allow_local_targets": true})`,
    };
  }
  return null;
}
