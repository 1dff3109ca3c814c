import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDurationSeconds, RETRY_AFTER_CAP_MS, retryAfterMs, retryDelayMs } from '../../../../runtime/delivery/worker/retry';

describe('Retry-After', () => {
  it('reads delay-seconds and HTTP dates, capped at an hour', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    assert.equal(retryAfterMs('2', now), 2000);
    assert.equal(retryAfterMs(' 120 ', now), 120_000);
    assert.equal(retryAfterMs(new Date(now + 30_000).toUTCString(), now), 30_000);
    assert.equal(retryAfterMs(new Date(now - 30_000).toUTCString(), now), 0, 'a date in the past asks for no wait');
    assert.equal(retryAfterMs('86400', now), RETRY_AFTER_CAP_MS);
    assert.equal(retryAfterMs('soon', now), null);
    assert.equal(retryAfterMs('-5', now), null);
    assert.equal(retryAfterMs(undefined, now), null);
  });

  it('lengthens the scheduled delay on 429 and 503 only, and never adds a retry', () => {
    const schedule = [0.1];
    assert.equal(retryDelayMs(schedule, 1, 429, '10'), 10_000);
    assert.equal(retryDelayMs(schedule, 1, 503, '10'), 10_000);
    assert.ok((retryDelayMs(schedule, 1, 500, '10') as number) <= 120, 'a 500 ignores Retry-After');
    assert.ok((retryDelayMs([100], 1, 429, '1') as number) >= 80_000, 'Retry-After never shortens the schedule');
    assert.equal(retryDelayMs(schedule, 2, 429, '10'), null, 'retries used up stay used up');
  });
});

describe('durations', () => {
  it('parses seconds and unit suffixes and names bad input', () => {
    assert.equal(parseDurationSeconds('90'), 90);
    assert.equal(parseDurationSeconds('1.5s'), 1.5);
    assert.equal(parseDurationSeconds('30m'), 1800);
    assert.equal(parseDurationSeconds('12h'), 43_200);
    assert.equal(parseDurationSeconds('5d'), 432_000);
    assert.equal(parseDurationSeconds('0'), 0);
    assert.throws(() => parseDurationSeconds('5 weeks'), /"5 weeks" is not a duration; give seconds/);
    assert.throws(() => parseDurationSeconds('-1'), /not a duration/);
  });
});
