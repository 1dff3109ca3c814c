// `spout mcp`: an MCP client that starts a command (Claude Desktop, Cursor, VS Code) talks JSON-RPC
// on stdio; the relay carries each message to the service's streamable-HTTP endpoint (/mcp, with
// the API key) and back, so the tools, resources and notifications are the service's own
// (docs/mcp.md). When the service restarts, the relay starts a new session by itself.

import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { isInitializeRequest, isJSONRPCRequest, isJSONRPCResultResponse } from '@modelcontextprotocol/sdk/types.js';

/** JSON-RPC's code for a server error the relay answers in the service's place. */
const RELAY_ERROR = -32000;

/** How long a new session's requests may take. */
const RENEW_WAIT_MS = 30_000;

/** Messages of a service's problem+json answer, without the transport's wrapping. */
function reason(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const json = /\{.*\}$/s.exec(text)?.[0];
  try {
    const detail = json ? (JSON.parse(json) as { detail?: unknown }).detail : undefined;
    if (typeof detail === 'string') return detail;
  } catch {
    // not a problem body
  }
  return text.replace(/^Streamable HTTP error: /, '');
}

/** Where the service's `/mcp` is now, and its key (asked again after a restart: its port may have changed). */
export type Locate = () => { url: URL; apiKey: string };

/** True when the session is gone with the service: it answered 404 for it, or nothing answers at all. */
function sessionLost(err: unknown): boolean {
  if (err instanceof StreamableHTTPError) return err.code === 404;
  return err instanceof TypeError && /fetch failed/.test(err.message);
}

/** Relays one stdio client to the service's `/mcp` until the client closes stdin. */
export class McpRelay {
  private upstream: StreamableHTTPClientTransport;
  /** The client's initialize, sent again to start a new session after the service restarted. */
  private initialize: JSONRPCRequest | null = null;
  /** Resources the client subscribed to, subscribed again in a new session. */
  private readonly subscribed = new Set<string>();
  /** Answers to the relay's own requests (a renewal's initialize and subscribes), not the client's. */
  private readonly own = new Map<string | number, () => void>();
  private renewing: Promise<void> | null = null;
  private sequence = 0;

  /** The service's origin, for messages. */
  private origin = '';

  constructor(
    private readonly locate: Locate,
    private readonly local: Transport,
    private readonly log: (line: string) => void,
  ) {
    this.upstream = this.open();
  }

  /** Starts relaying; resolves when the client has gone (stdin closed) and the session is ended. */
  async run(closed: Promise<void>): Promise<void> {
    this.local.onmessage = (message) => void this.toService(message);
    await this.upstream.start();
    await this.local.start();
    await closed;
    await this.upstream.terminateSession().catch(() => undefined);
    await this.upstream.close();
    await this.local.close();
  }

  private open(): StreamableHTTPClientTransport {
    const { url, apiKey } = this.locate();
    this.origin = url.origin;
    const upstream = new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } });
    upstream.onmessage = (message) => this.fromService(upstream, message);
    upstream.onerror = (err) => this.log(`spout mcp: ${reason(err)}`);
    return upstream;
  }

  private fromService(upstream: StreamableHTTPClientTransport, message: JSONRPCMessage): void {
    if ('id' in message && message.id !== undefined && this.own.has(message.id)) {
      const settle = this.own.get(message.id) as () => void;
      this.own.delete(message.id);
      if (isJSONRPCResultResponse(message) && typeof message.result.protocolVersion === 'string') upstream.setProtocolVersion(message.result.protocolVersion);
      return settle();
    }
    // Later requests carry the protocol version the service agreed to.
    if (isJSONRPCResultResponse(message) && message.id === this.initialize?.id && typeof message.result.protocolVersion === 'string') upstream.setProtocolVersion(message.result.protocolVersion);
    void this.local.send(message);
  }

  private async toService(message: JSONRPCMessage): Promise<void> {
    if (isJSONRPCRequest(message) && isInitializeRequest(message)) this.initialize = message;
    if (isJSONRPCRequest(message) && message.method === 'resources/subscribe') this.subscribed.add(String(message.params?.uri));
    if (isJSONRPCRequest(message) && message.method === 'resources/unsubscribe') this.subscribed.delete(String(message.params?.uri));
    try {
      await this.renewing;
      await this.upstream.send(message);
    } catch (first) {
      let err = first;
      // The service restarted (it no longer knows the session, or is on another port): start a new session and send again.
      if (sessionLost(err) && this.initialize && message !== this.initialize) {
        try {
          await (this.renewing ??= this.renew().finally(() => (this.renewing = null)));
          await this.upstream.send(message);
          return;
        } catch (again) {
          err = again;
        }
      }
      this.log(`spout mcp: ${reason(err)}`);
      if (isJSONRPCRequest(message)) await this.local.send({ jsonrpc: '2.0', id: message.id, error: { code: RELAY_ERROR, message: `Spout (${this.origin}): ${reason(err)}` } });
    }
  }

  /** A new session with the client's own initialize; its subscriptions follow, and the client is told the tools may differ. */
  private async renew(): Promise<void> {
    await this.upstream.close().catch(() => undefined);
    this.upstream = this.open();
    await this.upstream.start();
    await this.request('initialize', this.initialize?.params);
    await this.upstream.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    for (const uri of this.subscribed) await this.request('resources/subscribe', { uri });
    await this.local.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    this.log('spout mcp: the service restarted; a new session was started');
  }

  /** Sends a request of the relay's own and waits for its answer. */
  private async request(method: string, params: JSONRPCRequest['params']): Promise<void> {
    const id = `spout-relay-${++this.sequence}`;
    let timer: NodeJS.Timeout | undefined;
    const answered = new Promise<void>((resolve, reject) => {
      this.own.set(id, resolve);
      timer = setTimeout(() => reject(new Error(`the service did not answer ${method} in ${RENEW_WAIT_MS / 1000} s`)), RENEW_WAIT_MS);
    });
    try {
      await this.upstream.send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
      await answered;
    } finally {
      clearTimeout(timer);
      this.own.delete(id);
    }
  }
}
