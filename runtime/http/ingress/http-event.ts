// The event an HTTP interface source (or an HTTP-triggered workflow) receives for a request, with
// the fields Pipedream sends: method, path, query, client_ip, url, headers, bodyRaw, body.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import querystring from 'node:querystring';
import type { HttpEvent } from '../../contract/endpoint-exchange';
import { parseRequestBody } from '../../props/http-interface/request-body';

/** The first value of a header that may be repeated or comma-separated. */
function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const first = value?.split(',')[0]?.trim();
  return first ? first : undefined;
}

/** An address as people write it: IPv4 without the `::ffff:` prefix of a dual-stack socket. */
function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

const LOOPBACK = /^(127\.|::1$)/;

/**
 * The caller's address: the socket's peer, or, when the peer is this machine and says it
 * forwards (`X-Forwarded-For`, as a tunnel such as ngrok or a local proxy does), the first
 * address it names: the caller a public endpoint on Pipedream would see.
 */
function clientIp(req: IncomingMessage): string {
  const peer = plainAddress(req.socket.remoteAddress ?? '');
  const forwarded = firstValue(req.headers['x-forwarded-for']);
  return LOOPBACK.test(peer) && forwarded && isIP(plainAddress(forwarded)) ? plainAddress(forwarded) : peer;
}

/**
 * The URL the caller requested: its scheme and host as it sent them (through a tunnel: the
 * tunnel's, from `X-Forwarded-Proto`/`X-Forwarded-Host`), so code that checks a signature over the
 * URL (Twilio, QStash) sees the one that was signed. `fallbackOrigin` serves a request without Host
 * (asked only then: a URL parsed per request costs).
 */
function requestUrl(req: IncomingMessage, fallbackOrigin: () => string): string {
  const proto = firstValue(req.headers['x-forwarded-proto']);
  const host = firstValue(req.headers['x-forwarded-host']) ?? req.headers.host;
  const origin = host ? `${proto === 'https' ? 'https' : 'http'}://${host}` : fallbackOrigin();
  return `${origin}${req.url ?? '/'}`;
}

/** The event for a request to an endpoint: `path` is what follows the endpoint id, `headers` the ones the component may see. */
export function httpEvent(req: IncomingMessage, raw: Buffer, parts: { path: string; queryString: string | null; headers: IncomingHttpHeaders; fallbackOrigin: () => string }): HttpEvent {
  const text = raw.toString('utf8');
  return {
    method: req.method ?? 'GET',
    path: parts.path,
    query: parts.queryString === null ? {} : { ...querystring.parse(parts.queryString) },
    client_ip: clientIp(req),
    url: requestUrl(req, parts.fallbackOrigin),
    headers: parts.headers,
    bodyRaw: text,
    body: parseRequestBody(req.headers['content-type'] ?? '', text),
  };
}
