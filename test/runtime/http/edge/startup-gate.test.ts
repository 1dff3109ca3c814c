import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { RETRY_AFTER_SECONDS, StartupGate } from '../../../../runtime/http/edge/startup-gate';

async function serve(gate: StartupGate): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => gate.pass(res, () => res.end('served')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('StartupGate', () => {
  it('holds requests until it opens, then serves them', async () => {
    const gate = new StartupGate(10_000);
    const { url, close } = await serve(gate);
    const pending = fetch(url);
    await new Promise((r) => setTimeout(r, 50));
    gate.open();
    const res = await pending;
    assert.equal(await res.text(), 'served');
    assert.equal(await (await fetch(url)).text(), 'served');
    await close();
  });

  it('answers 503 with Retry-After to a request that waited in vain', async () => {
    const gate = new StartupGate(30);
    const { url, close } = await serve(gate);
    const res = await fetch(url);
    assert.equal(res.status, 503);
    assert.equal(res.headers.get('retry-after'), String(RETRY_AFTER_SECONDS));
    assert.equal(res.headers.get('content-type'), 'application/problem+json');
    assert.match(((await res.json()) as { detail: string }).detail, /starting/);
    gate.open();
    await close();
  });
});
