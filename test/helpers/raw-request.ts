import http from 'node:http';

/**
 * Sends a request with these headers, in this order, and no others (node:http adds no
 * `connection`, `host` or length of its own here), as curl does; answers the status.
 */
export function rawRequest(url: string, method: string, headers: Array<[string, string]>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, setHost: false, agent: false });
    for (const [name, value] of headers) req.setHeader(name, value);
    req.removeHeader('connection');
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}
