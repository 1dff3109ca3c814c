import type { Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { problemBody } from './error-statuses';

/** What a request node:http could not even parse gets, by the parser's error code (as node itself answers). */
function statusOf(code: string | undefined): { status: number; detail: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, detail: 'the request line and headers are over 16 KB together (a very long URL or cookie?)' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, detail: 'the chunk extensions of the request body are too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, detail: 'the request was not received in time' };
    default:
      return { status: 400, detail: `the request is not valid HTTP (${code ?? 'unparsable'})` };
  }
}

/** Writes a whole problem response straight to the socket and closes it. */
function endWithProblem(socket: Duplex, status: number, detail: string): void {
  const body = problemBody(status, detail);
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

/**
 * Makes the errors node:http answers by itself problem+json like every other: a request its parser
 * refused (an over-long URL or header block, malformed HTTP, one too slow to arrive), an
 * `Expect` it cannot meet, and a `CONNECT` (this is no proxy).
 */
export function answerProtocolErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex & { bytesWritten?: number }) => {
    if (err.code === 'ECONNRESET' || !socket.writable || (socket.bytesWritten ?? 0) > 0) return void socket.destroy();
    const { status, detail } = statusOf(err.code);
    endWithProblem(socket, status, detail);
  });
  server.on('checkExpectation', (req, res) => {
    res.writeHead(417, { 'content-type': 'application/problem+json' });
    res.end(problemBody(417, `"Expect: ${req.headers.expect}" is not supported; only "Expect: 100-continue" is`));
  });
  server.on('connect', (_req, socket: Duplex) => endWithProblem(socket, 405, 'CONNECT is not supported: this service is not a proxy'));
}
