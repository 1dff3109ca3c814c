// Settings saves are never dropped: one request at a time, later changes merged into the next.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSaveQueue } from '../../../renderer/src/api/save-queue';

interface Settings {
  on: boolean;
  folder: string;
  apps: string[];
}

/** A service whose answers the test releases one at a time, recording each patch it was sent. */
function heldService(start: Settings) {
  let state = start;
  const sent: Array<Partial<Settings>> = [];
  const held: Array<() => void> = [];
  const send = (patch: Partial<Settings>) =>
    new Promise<Settings>((resolve, reject) => {
      sent.push(patch);
      held.push(() => {
        if (patch.folder === 'bad') return reject(new Error('folder must be absolute'));
        state = { ...state, ...patch };
        resolve(state);
      });
    });
  const release = () => held.shift()?.();
  return { send, sent, release, held, state: () => state };
}

const START: Settings = { on: false, folder: '', apps: ['http'] };

describe('settings save queue', () => {
  it('sends a change made while another is on its way after it, merged with the others, the last value winning', async () => {
    const svc = heldService(START);
    const save = createSaveQueue<Settings, Partial<Settings>>(svc.send, () => START);
    const first = save({ on: true });
    const second = save({ folder: '/a' });
    const third = save({ folder: '/b' });
    assert.deepEqual(svc.sent, [{ on: true }], 'one request at a time');
    svc.release();
    await first;
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(svc.sent, [{ on: true }, { folder: '/b' }], 'the waiting changes in one request, the last value winning');
    svc.release();
    await Promise.all([second, third]);
    assert.deepEqual(svc.state(), { on: true, folder: '/b', apps: ['http'] });
  });

  it('computes a function change from the settings as saved, so two list edits in a row both stay', async () => {
    const svc = heldService(START);
    const save = createSaveQueue<Settings, Partial<Settings>>(svc.send, () => START);
    const add = (app: string) => save((saved) => ({ apps: [...saved.apps, app] }));
    const a = add('slack');
    const b = add('github');
    const c = add('stripe');
    svc.release();
    await a;
    await new Promise((r) => setImmediate(r));
    svc.release();
    await Promise.all([b, c]);
    assert.deepEqual(svc.state().apps, ['http', 'slack', 'github', 'stripe']);
  });

  it('rejects the changes of a refused request, and carries on with the next', async () => {
    const svc = heldService(START);
    const save = createSaveQueue<Settings, Partial<Settings>>(svc.send, () => svc.state());
    const bad = save({ folder: 'bad' });
    const later = save({ on: true });
    svc.release();
    await assert.rejects(bad, /folder must be absolute/);
    await new Promise((r) => setImmediate(r));
    svc.release();
    await later;
    assert.deepEqual(svc.state(), { on: true, folder: '', apps: ['http'] });
    assert.equal(svc.held.length, 0);
  });

  it('sends nothing when the changes waiting come to no field', async () => {
    const svc = heldService(START);
    const save = createSaveQueue<Settings, Partial<Settings>>(svc.send, () => START);
    await save(() => ({}));
    assert.deepEqual(svc.sent, []);
  });
});
