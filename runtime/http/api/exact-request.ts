// Requests the service sends to its own endpoints (a replay, run now): exactly the headers given,
// in their order, through the real `/e/` path.
import http from 'node:http';
import { z } from 'zod';
import { HttpError } from '../edge/error-statuses';
import { objectParam } from './params';

/** The parts of a request to an endpoint a caller may give (a replay's edits, run now's request, a saved payload). */
export const requestFields = z.object({
  method: z
    .string()
    .regex(/^[A-Za-z]+$/, 'must be an HTTP method such as POST')
    .optional(),
  path: z.string().startsWith('/', 'must start with /').optional(),
  query: z.string().optional(),
  headers: objectParam.pipe(z.record(z.string(), z.union([z.string(), z.array(z.string())]))).optional(),
  body: z.string().optional(),
});

/** Headers as they are sent, in order; a name may repeat with several values. */
export type HeaderList = Array<[string, string | string[]]>;

/** What an endpoint answered: its status and the first 64 KB of its body as text. */
export interface EndpointAnswer {
  status: number;
  body: string;
}

/** Of an answer's body, this much is kept (an endpoint's own refusals are short problem documents). */
const ANSWER_BODY_LIMIT = 64 * 1024;

/**
 * The headers a request sends: the given ones in their order, with the length of the body sent in
 * place of a given `content-length` (an edited body has another).
 */
export function requestHeaders(given: Record<string, string | string[]>, body: Buffer | undefined): HeaderList {
  const headers = Object.entries(given).map(([name, value]): [string, string | string[]] => (name.toLowerCase() === 'content-length' ? [name, String(body?.length ?? 0)] : [name, value]));
  const framed = headers.some(([name]) => ['content-length', 'transfer-encoding'].includes(name.toLowerCase()));
  if (body && !framed) headers.push(['content-length', String(body.length)]);
  return headers;
}

/**
 * Sends a request with these headers and no others, in their order, and answers the status and
 * body. `fetch` adds its own (`connection`, `accept-language`, `sec-fetch-mode`,
 * `accept-encoding`) and node:http adds `host`, `connection` and a length unless told not to: a
 * replay must not differ from the recording, since the component reads every header (signatures,
 * content negotiation).
 */
export function sendExactly(url: string, method: string, headers: HeaderList, body: Buffer | undefined): Promise<EndpointAnswer> {
  // Checked before anything is sent: a name or value node:http refuses is the caller's mistake.
  for (const [name, value] of headers) {
    try {
      http.validateHeaderName(name);
      for (const v of Array.isArray(value) ? value : [value]) http.validateHeaderValue(name, v);
    } catch (err) {
      return Promise.reject(new HttpError(400, `headers.${name}: ${(err as Error).message}`));
    }
  }
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, setHost: false, agent: false });
    for (const [name, value] of headers) req.setHeader(name, value);
    const given = new Set(headers.map(([name]) => name.toLowerCase()));
    for (const added of ['connection', 'content-length', 'transfer-encoding']) if (!given.has(added)) req.removeHeader(added);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < ANSWER_BODY_LIMIT) chunks.push(chunk);
        size += chunk.length;
      });
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).subarray(0, ANSWER_BODY_LIMIT).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
