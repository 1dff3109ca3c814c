// The desktop profile store (atomic writes, 0600, the key sealed, never kept in clear), the data
// dir's secret-encryption key sealed with safeStorage, and the Node that component hosts run with.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { findNode } from '../../main/node-binary';
import { ProfileRefused, ProfileStore } from '../../main/profile';
import { sealingAvailable, secretKeyWrapper } from '../../main/sealing';
import { SecretBox } from '../../runtime/store/secrets';
import { fakeSafeStorage } from './stand-ins';

const temp = (p: string) => fs.mkdtempSync(path.join(os.tmpdir(), p));

describe('desktop profile store', () => {
  it('writes atomically with mode 0600, the key sealed with safeStorage and never in the file or the view', () => {
    const dir = temp('spout-profile-');
    const file = path.join(dir, 'nested', 'desktop-profile.json');
    const storage = fakeSafeStorage();
    const store = new ProfileStore(file, storage, 'linux');
    assert.deepEqual(store.read(), { mode: 'local' });
    store.write({ mode: 'remote', url: 'https://spout.example.com', apiKey: 'spk_remote_secret' });
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.dirname(file)).mode & 0o777, 0o700);
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(!text.includes('spk_remote_secret'), 'the key is not in the file');
    assert.deepEqual(Object.keys(JSON.parse(text)).sort(), ['mode', 'sealedApiKey', 'url']);
    assert.equal(storage.sealed, 1);
    assert.deepEqual(fs.readdirSync(path.dirname(file)), ['desktop-profile.json'], 'no temporary file left');
    assert.deepEqual(store.read(), { mode: 'remote', url: 'https://spout.example.com', apiKey: 'spk_remote_secret' });
    assert.deepEqual(store.view(), { mode: 'remote', url: 'https://spout.example.com', keyStorage: 'safeStorage' });
    // A file made readable by others is put back to 0600 on the next write.
    fs.chmodSync(file, 0o644);
    store.write({ mode: 'local' });
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(store.read(), { mode: 'local' });
  });

  it('refuses to save a remote key without a real keychain, rather than keep it in clear', () => {
    for (const [storage, platform] of [
      [fakeSafeStorage({ available: false }), 'darwin'],
      [fakeSafeStorage({ backend: 'basic_text' }), 'linux'],
    ] as const) {
      const file = path.join(temp('spout-profile-'), 'desktop-profile.json');
      const store = new ProfileStore(file, storage, platform);
      assert.throws(
        () => store.write({ mode: 'remote', url: 'https://spout.example.com', apiKey: 'k' }),
        (err: Error) => err instanceof ProfileRefused && /never stores the key in clear.*spout login/.test(err.message),
      );
      assert.ok(!fs.existsSync(file));
      store.write({ mode: 'local' });
      assert.deepEqual(store.read(), { mode: 'local' });
    }
    // basic_text means no keychain only on Linux (elsewhere the backend call does not exist).
    assert.equal(sealingAvailable(fakeSafeStorage({ backend: 'basic_text' }), 'darwin'), true);
  });

  it('reads a key kept in clear by an older version, a tampered seal or a bad URL as the local instance', () => {
    const dir = temp('spout-profile-');
    const file = path.join(dir, 'desktop-profile.json');
    const store = new ProfileStore(file, fakeSafeStorage(), 'linux');
    for (const stored of [
      { mode: 'remote', url: 'https://spout.example.com', apiKey: 'clear-key' },
      { mode: 'remote', url: 'https://spout.example.com', sealedApiKey: Buffer.from('garbage').toString('base64') },
      { mode: 'remote', url: 'file:///etc', sealedApiKey: Buffer.from(`sealed:${Buffer.from('k').toString('hex')}`).toString('base64') },
      { mode: 'remote', url: 'http://10.0.0.1:7620', sealedApiKey: Buffer.from(`sealed:${Buffer.from('k').toString('hex')}`).toString('base64') },
    ]) {
      fs.writeFileSync(file, JSON.stringify(stored));
      assert.deepEqual(store.read(), { mode: 'local' }, JSON.stringify(stored));
    }
    fs.writeFileSync(file, '{not json');
    assert.deepEqual(store.read(), { mode: 'local' });
  });
});

describe('the data dir key sealed with safeStorage', () => {
  it('seals a new key, migrates a clear one (its file removed) and keeps opening what was sealed before', () => {
    const dir = temp('spout-keys-');
    const plain = SecretBox.open(dir);
    const sealedBefore = plain.seal('webhook secret');
    assert.ok(fs.existsSync(path.join(dir, 'secret.key')));
    const wrapper = secretKeyWrapper(fakeSafeStorage(), 'linux');
    assert.ok(wrapper);
    const box = SecretBox.open(dir, wrapper);
    assert.equal(box.open(sealedBefore), 'webhook secret');
    assert.ok(!fs.existsSync(path.join(dir, 'secret.key')), 'the clear key is gone');
    const sealedFile = path.join(dir, 'secret.key.sealed');
    assert.equal(fs.statSync(sealedFile).mode & 0o777, 0o600);
    assert.ok(fs.readFileSync(sealedFile, 'utf8').trim().length > 0);
    assert.equal(SecretBox.open(dir, wrapper).open(sealedBefore), 'webhook secret');
    // The headless service cannot open a data dir whose key the keychain holds, and says so.
    assert.throws(() => SecretBox.open(dir), /sealed with the desktop app's OS keychain/);
    // Another keychain (another user or machine) cannot unseal it.
    const other = {
      name: 'another keychain',
      wrap: () => '',
      unwrap: () => {
        throw new Error('cannot decrypt');
      },
    };
    assert.throws(() => SecretBox.open(dir, other), /cannot be unsealed with another keychain/);
    // A fresh data dir gets a sealed key only.
    const fresh = temp('spout-keys-');
    SecretBox.open(fresh, wrapper);
    assert.deepEqual(fs.readdirSync(fresh), ['secret.key.sealed']);
  });

  it('keeps the key in its 0600 file where the OS has no keychain', () => {
    assert.equal(secretKeyWrapper(fakeSafeStorage({ available: false }), 'win32'), undefined);
    assert.equal(secretKeyWrapper(fakeSafeStorage({ backend: 'basic_text' }), 'linux'), undefined);
  });
});

describe('the Node component hosts run with', () => {
  it('takes the first new enough node on PATH, SPOUT_NODE first, and names what to install otherwise', () => {
    const dir1 = temp('spout-bin-');
    const dir2 = temp('spout-bin-');
    for (const d of [dir1, dir2]) fs.writeFileSync(path.join(d, 'node'), '');
    const versions: Record<string, string> = { [path.join(dir1, 'node')]: 'v18.20.0', [path.join(dir2, 'node')]: 'v22.3.0' };
    const version = (f: string) => versions[f] ?? 'v0';
    assert.deepEqual(findNode({ PATH: [dir1, dir2].join(path.delimiter) }, 'linux', version), { path: path.join(dir2, 'node') });
    assert.deepEqual(findNode({ PATH: dir2, SPOUT_NODE: path.join(dir1, 'node') }, 'linux', version), { problem: `Spout runs components with Node.js 20.19 or newer; found only ${path.join(dir1, 'node')} (v18.20.0). Install a newer Node.js (nodejs.org), or name one with SPOUT_NODE=/path/to/node` });
    assert.match((findNode({ PATH: temp('spout-empty-') }, 'linux', version) as { problem: string }).problem, /was not found on PATH/);
  });
});
