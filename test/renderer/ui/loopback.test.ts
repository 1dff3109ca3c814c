// Which URLs name "this machine": pushed to another instance, they would name that one instead.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isLoopbackHost, isLoopbackUrl } from '../../../renderer/src/ui/loopback';

describe('loopback URLs', () => {
  it('knows this machine by its loopback names', () => {
    for (const url of ['http://127.0.0.1:4000/hook', 'http://localhost/x', 'http://[::1]:8080/', 'https://127.1.2.3/']) assert.equal(isLoopbackUrl(url), true, url);
  });
  it('does not mistake other hosts or text for it', () => {
    for (const url of ['https://hooks.example.com/x', 'http://10.0.0.5/', 'http://localhost.example.com/', 'not a url']) assert.equal(isLoopbackUrl(url), false, url);
    assert.equal(isLoopbackHost('127.0.0.1'), true);
  });
});
