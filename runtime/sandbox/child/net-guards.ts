// Walls around local sockets, which Node's permission model does not cover: a component may use
// the network (TCP, UDP), as on Pipedream, but not UNIX-domain sockets (by path or in Linux's
// abstract namespace) or Windows named pipes, through which a desktop's ssh-agent, D-Bus or Docker
// would answer it.
import net from 'node:net';
import { define, refused } from './host-guards';

const RULE = 'connect to or listen on local sockets (UNIX-domain sockets, abstract sockets, named pipes)';

/** Options of a `connect` or `listen` call, whichever way they were given. */
function optionsOf(args: unknown[]): Record<string, unknown> | null {
  // net.connect() hands Socket#connect its arguments already normalised, as [options, callback].
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (typeof first === 'string' && !/^\d+$/.test(first)) return { path: first };
  return typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : null;
}

/** `net.Socket#connect` and `net.Server#listen` refuse a path (and listening on a descriptor). */
export function guardSockets(): void {
  const connect = net.Socket.prototype.connect as (...args: unknown[]) => net.Socket;
  define(net.Socket.prototype, 'connect', function (this: net.Socket, ...args: unknown[]) {
    const options = optionsOf(args);
    if (options && options.path !== undefined && options.path !== null) throw refused(`connect to ${JSON.stringify(String(options.path))}`, RULE);
    return connect.apply(this, args);
  });
  const listen = net.Server.prototype.listen as (...args: unknown[]) => net.Server;
  define(net.Server.prototype, 'listen', function (this: net.Server, ...args: unknown[]) {
    const options = optionsOf(args);
    if (options && ((options.path !== undefined && options.path !== null) || options.fd !== undefined || options.handle !== undefined || '_handle' in options)) {
      throw refused(`listen on ${JSON.stringify(String(options.path ?? 'a descriptor'))}`, RULE);
    }
    return listen.apply(this, args);
  });
}
