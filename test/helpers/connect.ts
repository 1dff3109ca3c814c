// Drives the real `@pipedream/sdk` against a Spout: a client signed in with the project's OAuth
// client credentials, which keeps every JSON answer so tests can check it against the SDK's own
// schemas strictly (the SDK itself reads answers leniently).
// connectClient replaces globalThis.fetch for the test file's process; a test file uses one client.

import assert from 'node:assert/strict';
import path from 'node:path';
import { PipedreamClient, PipedreamError, serialization } from '@pipedream/sdk';
import type { SpoutProcess } from './service';

/** The registry folder of the Connect tests: a fictional app, `ledgerly`, with an action and a trigger. */
export const CONNECT_REGISTRY = path.resolve('test', 'fixtures', 'connect');

/** What `GET /v1/settings/connect` answers. */
export interface ConnectCredentials {
  base_url: string;
  project_id: string;
  client_id: string;
  client_secret: string;
}

/** An answer the SDK got. */
export interface Exchange {
  method: string;
  url: string;
  status: number;
  json: unknown;
}

export interface ConnectClient {
  pd: PipedreamClient;
  credentials: ConnectCredentials;
  /** Every request the client made, oldest first. */
  exchanges: Exchange[];
  /** The JSON of the last answer to a request whose path ends with `suffix`. */
  last: (suffix: string) => unknown;
}

/** The project credentials of a running Spout. */
export async function connectCredentials(spout: SpoutProcess): Promise<ConnectCredentials> {
  const res = await spout.api('GET', '/v1/settings/connect');
  if (res.status !== 200) throw new Error(`GET /v1/settings/connect: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json.data as ConnectCredentials;
}

/** A server-side SDK client for the Spout, as an app configures one: base URL and credentials only. */
export async function connectClient(spout: SpoutProcess): Promise<ConnectClient> {
  const credentials = await connectCredentials(spout);
  const exchanges: Exchange[] = [];
  // The SDK's client takes no fetch of its own (its wrapper drops the option): the global one is
  // wrapped, recording the answers of this Spout only.
  const original = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const res = await original(input, init);
    const url = String(input instanceof Request ? input.url : input);
    if (url.startsWith(spout.url)) {
      const text = await res.clone().text();
      let json: unknown = text;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        // not JSON
      }
      exchanges.push({ method: init?.method ?? 'GET', url, status: res.status, json });
    }
    return res;
  };
  const pd = new PipedreamClient({
    baseUrl: spout.url,
    clientId: credentials.client_id,
    clientSecret: credentials.client_secret,
    projectId: credentials.project_id,
    projectEnvironment: 'development',
  });
  const last = (suffix: string) => {
    const found = [...exchanges].reverse().find((e) => new URL(e.url).pathname.endsWith(suffix));
    if (!found) throw new Error(`no request to …${suffix}`);
    return found.json;
  };
  return { pd, credentials, exchanges, last };
}

type Schema = { parseOrThrow: (raw: unknown, opts?: Record<string, unknown>) => unknown };

/** Parses an answer with one of the SDK's response schemas, strictly: a missing required field throws. */
export function strictly(name: keyof typeof serialization, json: unknown): void {
  (serialization[name] as unknown as Schema).parseOrThrow(json, { unrecognizedObjectKeys: 'passthrough', allowUnrecognizedUnionMembers: false, allowUnrecognizedEnumValues: false, skipValidation: false });
}

/** The error an SDK call failed with (the test fails if it succeeds). */
export async function failure(call: Promise<unknown>): Promise<PipedreamError> {
  try {
    await call;
  } catch (err) {
    assert.ok(err instanceof PipedreamError, String(err));
    return err;
  }
  assert.fail('the call succeeded');
}
