// The window's navigation, redirect, new-window and webview guards, and the permission handlers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { guardContents, guardSession } from '../../main/guards';
import { fakeContents } from './stand-ins';

describe('desktop navigation and permission guards', () => {
  it('keeps pages on the instance shown: navigations, redirects and frames elsewhere are stopped', () => {
    const contents = fakeContents();
    let origin = 'http://127.0.0.1:7620';
    guardContents(
      contents,
      () => origin,
      () => undefined,
    );
    assert.deepEqual(contents.listened(), ['will-attach-webview', 'will-frame-navigate', 'will-navigate', 'will-redirect']);
    for (const event of ['will-navigate', 'will-redirect', 'will-frame-navigate']) {
      assert.equal(contents.emit(event, 'http://127.0.0.1:7620/sources/dc_1'), false, `${event} home`);
      for (const away of ['https://evil.example/', 'http://127.0.0.1:7621/', 'http://localhost:7620/', 'file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,<script>1</script>', 'chrome://settings', 'not a url']) {
        assert.equal(contents.emit(event, away), true, `${event} ${away}`);
      }
    }
    // The origin follows the profile.
    origin = 'https://spout.example.com';
    assert.equal(contents.emit('will-navigate', 'http://127.0.0.1:7620/'), true);
    assert.equal(contents.emit('will-navigate', 'https://spout.example.com/settings'), false);
    origin = '';
    assert.equal(contents.emit('will-navigate', 'https://spout.example.com/settings'), true, 'nothing is home before an instance is shown');
  });

  it('never attaches a webview and never opens a window; http(s) links elsewhere open in the browser', () => {
    const contents = fakeContents();
    const external: string[] = [];
    guardContents(
      contents,
      () => 'http://127.0.0.1:7620',
      (url) => external.push(url),
    );
    assert.equal(contents.emit('will-attach-webview'), true);
    for (const url of ['https://docs.example.com/', 'http://127.0.0.1:7620/sources', 'file:///etc/passwd', 'javascript:alert(1)', 'mailto:a@b.c']) {
      assert.deepEqual(contents.open(url), { action: 'deny' }, url);
    }
    assert.deepEqual(external, ['https://docs.example.com/']);
  });

  it('denies every permission request and answers every permission check no', () => {
    let request: ((c: unknown, p: string, cb: (granted: boolean) => void) => void) | null = null;
    let check: ((c: unknown, p: string) => boolean) | null = null;
    guardSession({ setPermissionRequestHandler: (h) => void (request = h), setPermissionCheckHandler: (h) => void (check = h) });
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'clipboard-sanitized-write', 'openExternal', 'fullscreen', 'hid', 'serial', 'usb']) {
      let granted: boolean | null = null;
      request!(null, permission, (g) => (granted = g));
      assert.equal(granted, false, permission);
      assert.equal(check!(null, permission), false, permission);
    }
  });
});
