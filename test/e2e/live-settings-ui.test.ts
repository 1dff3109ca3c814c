// Settings changed in the UI (issue 47, point 6) in a real Chromium: the Limits and retries form
// saves a run timeout and a retention, which the service applies at once (GET /v1/settings says so),
// shows the service's 400 for a value out of range, and says when a flag given at start overrides a value.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { axe, holdFirstRequest } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';
import { waitFor } from '../helpers/service';

describe('UI: changing settings without a restart', () => {
  const suite = browserSuite({ args: ['--warm-hosts', '4'] });

  it('saves the run timeout and event retention from the form, and shows a refusal', async () => {
    const { spout, page } = suite;
    await page.goto(`${spout.url}/settings`);
    const form = page.getByRole('form', { name: 'Limits and retries' });
    await form.waitFor();
    await axe(page, 'the limits and retries form');
    assert.equal(await form.getByLabel('Run timeout').inputValue(), '60');
    // A value given by flag at start says that it overrides what is saved.
    assert.match((await form.getByTestId('setting-warm_hosts-note').textContent()) ?? '', /set by --warm-hosts at start, which overrides the saved value/);
    assert.match((await form.getByTestId('setting-run_timeout_seconds-note').textContent()) ?? '', /^seconds$/);

    await form.getByLabel('Run timeout').fill('5');
    await form.getByLabel('Events kept per source').fill('300');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.locator('.toast').getByText('Settings saved').waitFor();
    const saved = (await spout.api('GET', '/v1/settings')).json.data;
    assert.equal(saved.run_timeout_seconds, 5);
    assert.equal(saved.event_retention, 300);
    assert.equal(saved.editable.run_timeout_seconds.origin, 'saved');
    // What the page shows elsewhere follows the answer.
    await page.getByText('5 s per run of component code').waitFor();

    // A second Save pressed while the first is on its way (its request held here until then) is
    // queued, not dropped: both edits are saved, and shown so after a reload.
    const patches = await holdFirstRequest(page, '**/v1/settings', 'PATCH');
    await form.getByLabel('Run timeout').fill('7');
    await form.getByRole('button', { name: 'Save' }).click();
    await waitFor(() => patches.sent() === 1 || null, 5000, 'the first save on its way');
    await form.getByLabel('Runs kept per source').fill('250');
    await form.getByRole('button', { name: 'Save' }).click();
    patches.release();
    await waitFor(
      async () => {
        const now = (await spout.api('GET', '/v1/settings')).json.data;
        return (now.run_timeout_seconds === 7 && now.invocation_retention === 250) || null;
      },
      10_000,
      'both edits saved',
    );
    await patches.stop();
    await page.reload();
    await form.waitFor();
    assert.equal(await form.getByLabel('Run timeout').inputValue(), '7');
    assert.equal(await form.getByLabel('Runs kept per source').inputValue(), '250');

    await form.getByLabel('Run timeout').fill('0');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText(/run_timeout_seconds.*from 1 to 3600/).waitFor();
    assert.equal((await spout.api('GET', '/v1/settings')).json.data.run_timeout_seconds, 7, 'the refused value was not saved');
  });
});
