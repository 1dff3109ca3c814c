// Issue 12: between the moment the port answers and the end of loading sources (the port must be
// known first: endpoint URLs carry it), endpoints and the API never answer 500: a request is
// served once loading ends, or answered 503 with Retry-After.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deploySource, spawnServeEarly, startSpout, tempDir } from '../helpers/service';

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

    const { base, child, output } = await spawnServeEarly(dataDir);
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
      while (!output().includes('Spout listening') || answers.filter((a) => a.status === 200).length < paths.length) {
        assert.ok(Date.now() - started < 60_000, `the service did not get ready:\n${output()}`);
        await Promise.all([...paths.map((p) => hit(p, { url: base + p, method: 'POST', body: 'ping' })), hit('event_summaries', { url: `${base}/v1/sources/${sourceId}/event_summaries`, headers: { authorization: 'Bearer test-key-123' } })]);
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
    assert.doesNotMatch(output(), /internal error|Error: the component of/);
  });
});
