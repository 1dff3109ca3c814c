// Host side of requests to the service (data stores, recorded calls): each call is a message answered by a
// `call-result`, which is handled as soon as it arrives, not queued behind invocations.
import type { CallRequest } from '../../contract/network-api';
import type { DataStoreCall, HostCall, NetworkAnswer, SerializedError } from '../../contract/host-protocol';

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

function hostCall(request: HostCall): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const callId = nextId++;
    pending.set(callId, { resolve, reject });
    post(callId, request);
  });
}

/** What `this.<data_store prop>` is: the async store API of DESIGN.md section 5, on the configured store. */
export function dataStoreProxy(propName: string, storeId: string | null): Record<string | symbol, unknown> {
  const call = (c: DataStoreCall) =>
    storeId
      ? hostCall({ service: 'data_store', storeId, call: c })
      : Promise.reject(new Error(`prop \`${propName}\`: no data store is configured; set it to {"dataStore": "ds_…"} (POST /v1/data_stores creates one)`));
  return {
    get: (key: string) => call({ op: 'get', key }),
    set: async (key: string, value: unknown, options?: { ttl?: number | null }) => call({ op: 'set', key, value: jsonValue(key, value), ttl: options?.ttl ?? null }),
    setTtl: (key: string, ttl: number | null) => call({ op: 'setTtl', key, ttl }),
    has: (key: string) => call({ op: 'has', key }),
    keys: () => call({ op: 'keys' }),
    delete: (key: string) => call({ op: 'delete', key }),
    clear: () => call({ op: 'clear' }),
    entries: () => call({ op: 'entries' }),
    async *[Symbol.asyncIterator]() {
      yield* (await call({ op: 'entries' })) as Array<[string, unknown]>;
    },
  };
}

/** A copy of the value through JSON, so what is stored is what a later `get` returns. */
function jsonValue(key: string, value: unknown): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (err) {
    throw new TypeError(`data store set("${key}"): the value is not JSON-serialisable (${(err as Error).message})`);
  }
  if (text === undefined) throw new TypeError(`data store set("${key}"): a ${typeof value} cannot be stored; store JSON values`);
  return JSON.parse(text);
}

/** Asks the service which recording answers an outgoing call (replay modes). */
export function networkMatch(request: CallRequest): Promise<NetworkAnswer> {
  return hostCall({ service: 'network', request }) as Promise<NetworkAnswer>;
}
