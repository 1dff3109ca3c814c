// A counting webhook receiver: POSTs are counted, `GET /count` reports how many arrived.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

let count = 0;
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.method === 'GET') return res.end(String(count));
    count++;
    res.end('ok');
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`));
