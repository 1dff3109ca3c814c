// The Connect proxy's outgoing request: sent with the account's credentials, and served as
// components' calls are (docs/runtime.md, network modes): live, recorded to the account's
// cassette, or answered from it. Recordings mask the account's credentials.

import { fetch } from 'undici';
import type { RecordedBody } from '../../contract/invocation-api';
import type { CallRequest, CallResponse, NetworkMode, OutgoingCall } from '../../contract/network-api';
import { ConnectionRefusedByPolicy, guardedAgent } from '../../lib/guarded-agent';
import { maskerFor, type NetworkService } from '../network/network-service';

/** The proxy gives up on an upstream API after 30 s, as Pipedream's does (504). */
export const PROXY_TIMEOUT_MS = 30_000;

/** A request to send for an account. */
export interface ProxyRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** Why a connection to `address:port` may not be made (a local address the project does not allow), or null. */
export type ConnectionPolicy = (address: string, port: number) => string | null;

/** What came back: the upstream answer, or why there is none (`status` 403/502/504 then). */
export interface ProxyAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Set when no upstream answer came: the recording is missing, or the call failed. */
  problem: string | null;
}

/** Credential fields put in `Authorization: Bearer …`, the first one an account has. */
const BEARER_FIELDS = ['oauth_access_token', 'access_token', 'api_key', 'api_token', 'token'];

/** Headers the proxy sets itself. */
const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade']);

function recordedBody(bytes: Buffer): RecordedBody {
  const text = bytes.toString('utf8');
  const isText = Buffer.from(text, 'utf8').equals(bytes);
  return { body: isText ? text : bytes.toString('base64'), body_encoding: isText ? 'utf8' : 'base64', body_size: bytes.length, body_truncated: false };
}

function bodyOf(r: RecordedBody): Buffer {
  return Buffer.from(r.body, r.body_encoding === 'base64' ? 'base64' : 'utf8');
}

/**
 * The URL to call: absolute as given, or a path relative to the account's base URL (an
 * account-specific domain, as Zendesk's), from the first credential field holding an http(s) URL.
 */
export function proxyUrl(url: string, credentials: Record<string, unknown>): string {
  if (/^https?:\/\//i.test(url)) return url;
  const base = Object.values(credentials).find((v): v is string => typeof v === 'string' && /^https?:\/\//i.test(v));
  if (!base) throw new Error(`"${url}" is not an absolute http(s) URL, and the account has no base URL field to resolve it against`);
  return new URL(url.replace(/^\/+/, ''), base.endsWith('/') ? base : `${base}/`).toString();
}

/** The request's headers with the account's credential added (a header the caller sets itself is kept). */
export function withCredentials(headers: Record<string, string>, credentials: Record<string, unknown>): Record<string, string> {
  const out = Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP_HEADERS.has(k.toLowerCase())));
  const field = BEARER_FIELDS.find((f) => typeof credentials[f] === 'string' && credentials[f] !== '');
  if (field && !Object.keys(out).some((k) => k.toLowerCase() === 'authorization')) out.authorization = `Bearer ${String(credentials[field])}`;
  return out;
}

/**
 * Sends (or replays) one proxy request for an account; `owner` is whose cassette it uses (the
 * account id). Every connection it makes, redirects included, is checked against `policy`.
 */
export async function proxyCall(network: NetworkService, owner: string, mode: NetworkMode, credentials: Record<string, unknown>, request: ProxyRequest, policy: ConnectionPolicy): Promise<ProxyAnswer> {
  const masker = maskerFor(credentials, []);
  const call: CallRequest = { method: request.method, url: request.url, headers: request.headers, ...recordedBody(request.body) };
  const started = Date.now();
  const keep = (response: CallResponse | null, error: string | null, servedBy: OutgoingCall['served_by'], entry: number | null) => {
    network.record(owner, mode, masker, [{ request: call, response, error, duration_ms: Date.now() - started, served_by: servedBy, entry }]);
  };
  if (mode === 'replay' || mode === 'replay-or-live') {
    const found = network.match(owner, masker, call);
    if (found.response) {
      keep(found.response, null, 'cassette', found.entry);
      return { status: found.response.status, headers: found.response.headers, body: bodyOf(found.response), problem: null };
    }
    if (mode === 'replay') return { status: 502, headers: {}, body: Buffer.alloc(0), problem: (found.miss ?? 'no recording').replace(/\(spout dev --record, or network_mode on the source\)/, '(network_mode=record on the proxy request)') };
  }
  const dispatcher = guardedAgent(policy);
  try {
    const res = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.method === 'GET' || request.method === 'HEAD' || request.body.length === 0 ? undefined : new Uint8Array(request.body),
      signal: AbortSignal.timeout(PROXY_TIMEOUT_MS),
      dispatcher,
    });
    const body = Buffer.from(await res.arrayBuffer());
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => (headers[name] = value));
    keep({ status: res.status, headers, ...recordedBody(body) }, null, 'live', null);
    return { status: res.status, headers, body, problem: null };
  } catch (err) {
    const cause = (err as Error).cause;
    if (cause instanceof ConnectionRefusedByPolicy) return { status: 403, headers: {}, body: Buffer.alloc(0), problem: cause.message };
    const timedOut = (err as Error).name === 'TimeoutError';
    const why = timedOut ? `no answer from ${request.url} within ${PROXY_TIMEOUT_MS / 1000} s` : `calling ${request.url} failed: ${(err as Error).message}`;
    keep(null, why, 'live', null);
    return { status: timedOut ? 504 : 502, headers: {}, body: Buffer.alloc(0), problem: why };
  } finally {
    void dispatcher.close();
  }
}
