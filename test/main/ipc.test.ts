// The desktop app's IPC: only the allow-listed channels, each argument checked by its schema, and
// only for the top frame of a page of the instance the window shows.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ipcChannels } from '../../main/ipc';
import { registerIpc } from '../../main/ipc-handlers';
import { type Profile, ProfileStore } from '../../main/profile';
import { fakeIpcMain, fakeSafeStorage } from './stand-ins';

const LOCAL = 'http://127.0.0.1:7620';

function setup(options: { showingRemote?: boolean } = {}) {
  const ipc = fakeIpcMain();
  const opened: string[] = [];
  const shown: Profile[] = [];
  const profiles = new ProfileStore(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spout-ipc-')), 'desktop-profile.json'), fakeSafeStorage(), 'linux');
  let origin = LOCAL;
  registerIpc(ipc, {
    origin: () => origin,
    showingRemote: () => options.showingRemote ?? false,
    openExternal: async (url) => void opened.push(url),
    version: () => '1.2.3',
    profiles,
    show: (p) => void shown.push(p),
  });
  const top = { url: `${LOCAL}/settings` };
  return { ipc, opened, shown, profiles, top, setOrigin: (o: string) => (origin = o) };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('desktop IPC', () => {
  it('handles exactly the allow-listed channels', async () => {
    const { ipc, top } = setup();
    assert.deepEqual(ipc.channels(), Object.keys(ipcChannels).sort());
    await assert.rejects(ipc.invoke('shell:exec', 'rm -rf /', top), /No handler registered/);
    assert.equal(await ipc.invoke('app:version', undefined, top), '1.2.3');
  });

  it('answers only the top frame of a page of the instance shown', async () => {
    const { ipc, setOrigin } = setup();
    for (const from of [{ url: 'https://evil.example/x' }, { url: 'http://127.0.0.1:7621/' }, { url: 'http://localhost:7620/' }, { url: 'file:///etc/passwd' }, { url: 'not a url' }, { url: `${LOCAL}/`, parent: {} }, null]) {
      await assert.rejects(ipc.invoke('app:version', undefined, from), /IPC refused/, JSON.stringify(from));
    }
    // Once the window shows another instance, its pages are the ones answered.
    setOrigin('https://spout.example.com');
    await assert.rejects(ipc.invoke('app:version', undefined, { url: `${LOCAL}/` }), /IPC refused/);
    assert.equal(await ipc.invoke('app:version', undefined, { url: 'https://spout.example.com/sources' }), '1.2.3');
    // Before anything is shown (origin ''), nothing is answered.
    setOrigin('');
    await assert.rejects(ipc.invoke('app:version', undefined, { url: `${LOCAL}/` }), /IPC refused/);
  });

  it('checks every argument against its schema', async () => {
    const { ipc, top, opened } = setup();
    await ipc.invoke('shell:open-external', 'https://docs.example.com/page', top);
    assert.deepEqual(opened, ['https://docs.example.com/page']);
    for (const bad of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'ms-msdt:/id', '', 42, { url: 'https://x' }]) {
      await assert.rejects(ipc.invoke('shell:open-external', bad, top), /IPC shell:open-external/, JSON.stringify(bad));
    }
    assert.equal(opened.length, 1);
    await assert.rejects(ipc.invoke('app:version', 'extra', top), /IPC app:version/);
    await assert.rejects(ipc.invoke('profile:get', { mode: 'local' }, top), /IPC profile:get/);
    await assert.rejects(ipc.invoke('profile:set', { mode: 'local', extra: 1 }, top), /IPC profile:set/);
    await assert.rejects(ipc.invoke('profile:set', { mode: 'remote', url: 'file:///x', apiKey: 'k' }, top), /IPC profile:set/);
    // Plain http to another machine would send the key in clear.
    await assert.rejects(ipc.invoke('profile:set', { mode: 'remote', url: 'http://10.0.0.5:7620', apiKey: 'k' }, top), /plain http to another machine/);
  });

  it('saves a remote profile (key sealed, never returned) and loads it; a remote page may only go back to local', async () => {
    const { ipc, top, shown, profiles } = setup();
    const view = await ipc.invoke('profile:set', { mode: 'remote', url: 'https://spout.example.com/some/path', apiKey: 'remote-key' }, top);
    assert.deepEqual(view, { mode: 'remote', url: 'https://spout.example.com', keyStorage: 'safeStorage' });
    assert.ok(!JSON.stringify(await ipc.invoke('profile:get', undefined, top)).includes('remote-key'));
    await tick();
    assert.deepEqual(shown, [{ mode: 'remote', url: 'https://spout.example.com', apiKey: 'remote-key' }]);
    // An empty key keeps the saved one for the same URL, and is refused for another URL.
    await ipc.invoke('profile:set', { mode: 'remote', url: 'https://spout.example.com', apiKey: '' }, top);
    assert.deepEqual(profiles.read(), { mode: 'remote', url: 'https://spout.example.com', apiKey: 'remote-key' });
    await assert.rejects(ipc.invoke('profile:set', { mode: 'remote', url: 'https://other.example.com', apiKey: '' }, top), /give the remote instance’s API key/);
    // Loopback over http is allowed (an SSH tunnel, another local service).
    await ipc.invoke('profile:set', { mode: 'remote', url: 'http://127.0.0.1:9000', apiKey: 'k2' }, top);

    const remote = setup({ showingRemote: true });
    await assert.rejects(remote.ipc.invoke('profile:set', { mode: 'remote', url: 'https://elsewhere.example.com', apiKey: 'k' }, remote.top), /from the local instance/);
    assert.deepEqual(await remote.ipc.invoke('profile:set', { mode: 'local' }, remote.top), { mode: 'local' });
  });
});
