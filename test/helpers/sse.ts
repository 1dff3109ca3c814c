import assert from 'node:assert/strict';

/** Reads `count` server-sent events from `url` (with the API key, optionally resuming after `lastEventId`). */
export async function readSse(url: string, apiKey: string, count: number, signal: AbortSignal, lastEventId?: string): Promise<Array<{ id: string; data: any }>> {
  const headers: Record<string, string> = { authorization: `Bearer ${apiKey}` };
  if (lastEventId) headers['last-event-id'] = lastEventId;
  const res = await fetch(url, { headers, signal });
  assert.equal(res.status, 200);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const out: Array<{ id: string; data: any }> = [];
  let buffer = '';
  while (out.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const id = /^id: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (id && data) out.push({ id, data: JSON.parse(data) });
    }
  }
  return out;
}
