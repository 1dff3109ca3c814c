// Logs of runs and hooks: the logs API and the `observations` SSE stream, with resume.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SpoutProcess, startSpout } from '../helpers/service';
import { readSse } from '../helpers/sse';

/** Logs from a hook and from each run (written for this test). */
const CHATTY = `
export default {
  name: "Chatty",
  version: "0.0.1",
  props: {},
  hooks: { async activate() { console.info("activated"); } },
  async run() { console.log("run says", { n: 1 }); console.warn("careful"); throw new Error("run failed here"); },
};`;

type Line = { id: string; level: string; message: string; invocation_id: string | null };

describe('logs and observations', () => {
  let spout: SpoutProcess;
  before(async () => (spout = await startSpout()));
  after(async () => void (await spout.stop()));

  it('keeps the console output and errors of hooks and runs, with the invocation id, and streams them', async () => {
    const id = (await spout.api('POST', '/v1/sources', { component_code: CHATTY })).json.data.id as string;
    const abort = new AbortController();
    const streamed = readSse(`${spout.url}/sse/dc/${id}/observations`, spout.apiKey, 3, abort.signal);
    await new Promise((r) => setTimeout(r, 200));
    const run = (await spout.api('POST', `/v1/sources/${id}/run`)).json.data;
    const live = (await streamed).map((e) => e.data as Line);
    abort.abort();
    assert.deepEqual(
      live.map((l) => [l.level, l.message.split('\n')[0]]),
      [
        ['log', 'run says { n: 1 }'],
        ['warn', 'careful'],
        ['error', 'Error: run failed here'],
      ],
    );
    assert.ok(
      live.every((l) => l.invocation_id === run.invocation_id),
      'every line carries the run’s invocation id',
    );

    const logs = (await spout.api('GET', `/v1/sources/${id}/logs`)).json.data as Line[];
    assert.deepEqual(logs.map((l) => l.message.split('\n')[0]).reverse(), ['activated', 'run says { n: 1 }', 'careful', 'Error: run failed here']);
    assert.match(logs[0]!.message, /\n\s+at /, 'the error comes with its stack');

    // A client reconnecting with Last-Event-ID gets what it missed, then the stream goes on.
    const resumeFrom = logs[logs.length - 1]!.id;
    const again = new AbortController();
    const resumed = await readSse(`${spout.url}/sse/dc/${id}/observations`, spout.apiKey, 3, again.signal, resumeFrom);
    again.abort();
    assert.deepEqual(
      resumed.map((e) => (e.data as Line).message.split('\n')[0]),
      ['run says { n: 1 }', 'careful', 'Error: run failed here'],
    );
  });
});
