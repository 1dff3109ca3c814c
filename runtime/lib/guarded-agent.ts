// An HTTP dispatcher that checks whom each connection reached, after DNS and for every redirect: a
// host name that resolves to a refused address is refused too, which a check of the URL alone
// cannot see.
import type net from 'node:net';
import { Agent, buildConnector } from 'undici';

/** Why a connection was refused; it ends the request as its `cause`. */
export class ConnectionRefusedByPolicy extends Error {}

/** A dispatcher whose connections end, before any byte is sent, when `refuse(address, port)` names a reason. */
export function guardedAgent(refuse: (address: string, port: number) => string | null): Agent {
  return new Agent({ connect: guardedConnector(refuse) });
}

/**
 * An undici connector (for an Agent or a Pool) that checks each new connection once, by the
 * address it reached; `options` go to the socket (a `timeout`, a `lookup`).
 */
export function guardedConnector(refuse: (address: string, port: number) => string | null, options: buildConnector.BuildOptions = {}): buildConnector.connector {
  const connect = buildConnector(options);
  return (opts, callback) =>
    connect(opts, (err, socket) => {
      if (err) return callback(err, null);
      const s = socket as net.Socket;
      const why = refuse(s.remoteAddress ?? '', s.remotePort ?? 0);
      if (why === null) return callback(null, socket);
      s.destroy();
      callback(new ConnectionRefusedByPolicy(why), null);
    });
}
