// Issue 12: between the moment the port answers and the end of loading sources (the port must be
// known first: endpoint URLs carry it), endpoints and the API never answer 500: a request is
// served once loading ends, or answered 503 with Retry-After.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { describe, it } from 'node:test';
import { deploySource, startSpout, tempDir } from '../helpers/service';

/** A port free right now (the service is started on it, so the test can knock before it is ready). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a restart under load', () => {
  it('answers requests that arrive while sources load with their result or 503 + Retry-After, never 500', async () => {
    const dataDir = tempDir();
    const first = await startSpout({ dataDir });
    const paths: string[] = [];
    let sourceId = '';
    try {
      for (let i = 0; i < 12; i++) {
        const source = await deploySource(first);
        paths.push(new URL(source.endpoint).pathname);
        sourceId = source.id;
      }
    } finally {
      await first.stop();
    }

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, [path.resolve('dist', 'cli.js'), 'serve', '--port', String(port), '--data-dir', dataDir, '--api-key', 'test-key-123'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const answers: Array<{ what: string; status: number; retryAfter: string | null; type: string | null }> = [];
    try {
      // Knock from the start: connection refusals are fine until the port answers.
      const hit = async (what: string, init: RequestInit & { url: string }) => {
        try {
          const res = await fetch(init.url, init);
          answers.push({ what, status: res.status, retryAfter: res.headers.get('retry-after'), type: res.headers.get('content-type') });
          await res.arrayBuffer();
        } catch {
          // not listening yet
        }
      };
      const started = Date.now();
      while (!output.includes('Spout listening') || answers.filter((a) => a.status === 200).length < paths.length) {
        assert.ok(Date.now() - started < 60_000, `the service did not get ready:\n${output}`);
        await Promise.all([
          ...paths.map((p) => hit(p, { url: base + p, method: 'POST', body: 'ping' })),
          hit('event_summaries', { url: `${base}/v1/sources/${sourceId}/event_summaries`, headers: { authorization: 'Bearer test-key-123' } }),
        ]);
        if (answers.length === 0) await new Promise((r) => setTimeout(r, 10));
      }
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.on('exit', resolve));
    }
    const early = answers.filter((a) => a.status !== 200);
    for (const a of early) {
      assert.equal(a.status, 503, `${a.what} answered ${a.status}`);
      assert.ok(Number(a.retryAfter) > 0, `${a.what}: 503 with Retry-After`);
      assert.match(a.type ?? '', /application\/problem\+json/);
    }
    assert.ok(answers.some((a) => a.status === 200));
    assert.doesNotMatch(output, /internal error|Error: the component of/);
  });
});
