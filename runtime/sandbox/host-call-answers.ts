// What the service answers a host's calls with: data store operations (only on the stores the
// component is configured with) and recordings of outgoing calls in a replay mode.

import type { DataStoreCall, HostCall, HostMessage, NetworkAnswer } from '../contract/host-protocol';
import type { CallRequest } from '../contract/network-api';

/** What answering a host's calls needs: the component's handlers and the stores its context allows. */
export interface HostCallHandlers {
  onDataStore?: (storeId: string, call: DataStoreCall) => Promise<unknown>;
  onNetworkMatch?: (request: CallRequest) => NetworkAnswer;
  dataStores: readonly string[];
  /** Told when a replay has no recording for a call. */
  onMiss: (miss: string) => void;
}

/** Performs one host call; rejects with a message a component can act on. */
export function answerHostCall(request: HostCall, handlers: HostCallHandlers): Promise<unknown> {
  if (request.service === 'network') {
    const match = handlers.onNetworkMatch;
    const answer: NetworkAnswer = match ? match(request.request) : { response: null, entry: null, miss: 'recorded calls are not available here' };
    if (answer.miss) handlers.onMiss(answer.miss);
    return Promise.resolve(answer);
  }
  const handler = handlers.onDataStore;
  if (!handler) return Promise.reject(new Error('data stores are not available while configuring a component'));
  if (!handlers.dataStores.includes(request.storeId)) return Promise.reject(new Error(`data store ${request.storeId} is not configured on any data_store prop of this component`));
  return handler(request.storeId, request.call);
}

/** Performs one host call and sends the host its result (or its error). */
export function sendHostCallAnswer(host: { send(message: HostMessage): void }, callId: number, request: HostCall, handlers: HostCallHandlers): void {
  answerHostCall(request, handlers).then(
    (value) => host.send({ type: 'call-result', callId, value }),
    (err: Error) => host.send({ type: 'call-result', callId, error: { name: err.name, message: err.message } }),
  );
}
