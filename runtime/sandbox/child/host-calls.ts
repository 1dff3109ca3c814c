// Host side of requests to the service (data store props' operations, recorded calls): each call
// is a message answered by a `call-result`, which is handled as soon as it arrives, not queued
// behind invocations.

import type { HostCall, NetworkAnswer, SerializedError } from '../../contract/host-protocol';
import type { CallRequest } from '../../contract/network-api';

type Post = (callId: number, request: HostCall) => void;

const pending = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
let nextId = 0;
let post: Post = () => {
  throw new Error('host calls are not connected');
};

/** Connects host calls to the worker's port. */
export function connectHostCalls(send: Post): void {
  post = send;
}

/** Settles the call a `call-result` answers. */
export function settleHostCall(callId: number, value: unknown, error: SerializedError | undefined): void {
  const call = pending.get(callId);
  if (!call) return;
  pending.delete(callId);
  if (error) call.reject(Object.assign(new Error(error.message), { name: error.name }));
  else call.resolve(value);
}

/** True while a request to the service awaits its answer (the test clock does not overtake one). */
export function hostCallsPending(): boolean {
  return pending.size > 0;
}

/** Sends a request to the service; resolves to its answer (rejects with its error). */
export function hostCall(request: HostCall): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const callId = nextId++;
    pending.set(callId, { resolve, reject });
    post(callId, request);
  });
}

/** Asks the service which recording answers an outgoing call (replay modes). */
export function networkMatch(request: CallRequest): Promise<NetworkAnswer> {
  return hostCall({ service: 'network', request }) as Promise<NetworkAnswer>;
}
