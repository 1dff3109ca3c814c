// Instance settings and API key rotation.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { startSpout } from '../helpers/service';

describe('settings', () => {
  it('shows how the service runs without the key, and refuses to rotate a key given by flag', async () => {
    const spout = await startSpout({ args: ['--retry-schedule', '1,2', '--event-retention', '500'] });
    try {
      const { json } = await spout.api('GET', '/v1/settings');
      assert.equal(json.data.data_dir, spout.dataDir);
      assert.equal(json.data.url, spout.url);
      assert.deepEqual(json.data.retry_schedule, [1, 2]);
      assert.equal(json.data.event_retention, 500);
      assert.equal(json.data.api_key_source, 'option');
      assert.equal(json.data.api_key_hint, spout.apiKey.slice(-4));
      assert.ok(!JSON.stringify(json).includes(spout.apiKey), 'the key itself is never shown');
      const rotate = await spout.api('POST', '/v1/settings/api-key/rotate');
      assert.equal(rotate.status, 409);
      assert.match(rotate.json.error, /comes from --api-key; change it there/);
    } finally {
      await spout.stop();
    }
  });

  it('rotates a key kept in the data dir: the old key stops working, the new one and the file agree', async () => {
    const spout = await startSpout({ keyInDataDir: true, apiKey: 'spk_original_key_1234' });
    try {
      const res = await spout.api('POST', '/v1/settings/api-key/rotate');
      assert.equal(res.status, 200, JSON.stringify(res.json));
      const key = res.json.data.api_key as string;
      assert.match(key, /^spk_/);
      assert.match(String(res.headers.get('set-cookie')), /spout_session_\d+=/, 'the rotating browser keeps its session');
      assert.equal(fs.readFileSync(path.join(spout.dataDir, 'api-key'), 'utf8').trim(), key);
      assert.equal((await spout.api('GET', '/v1/settings')).status, 401, 'the old key is refused');
      const withNew = await fetch(`${spout.url}/v1/settings`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(withNew.status, 200);
    } finally {
      await spout.stop();
    }
  });
});
