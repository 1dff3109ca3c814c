import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request a receiver got. */
export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * How a receiver answers one request: a status (body "ok" under 300, else "failing on purpose"),
 * a full answer, or `'hang'` to never answer (the connection stays open until the receiver closes).
 */
export type Reply = number | { status: number; headers?: Record<string, string>; body?: string } | 'hang';

/** A local webhook receiver on 127.0.0.1 that records requests and answers as the test says. */
export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Decides the answer to each request (default 200). */
  respond: (req: Received, index: number) => Reply;
  close: () => Promise<void>;
}

/** Receivers a test suite starts as it goes, closed together at its end. */
export function receiverPool(): { start: () => Promise<Receiver>; closeAll: () => Promise<void> } {
  const started: Receiver[] = [];
  return {
    start: async () => {
      const r = await startReceiver();
      started.push(r);
      return r;
    },
    closeAll: async () => void (await Promise.all(started.map((r) => r.close()))),
  };
}

/** Starts a receiver; `port` reuses a port (to bring a receiver back after it was down). */
export async function startReceiver(port = 0): Promise<Receiver> {
  const receiver: Receiver = { url: '', port: 0, received: [], respond: () => 200, close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      const index = receiver.received.push(r) - 1;
      const reply = receiver.respond(r, index);
      if (reply === 'hang') return;
      const answer = typeof reply === 'number' ? { status: reply } : reply;
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? (answer.status < 300 ? 'ok' : 'failing on purpose'));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hook`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
