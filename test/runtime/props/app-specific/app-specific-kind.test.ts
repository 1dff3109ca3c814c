// Pipedream's app-specific types (`$.discord.channel`): accepted with a warning, their values taken
// as given (there is no app offline to check them against).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { STATIC_VALUE_LIMIT } from '../../../../runtime/props/shared/prop-values';
import { assertOnlyWarning, configure, withProp } from '../../../helpers/component-checks';

describe('app-specific props: definition', () => {
  it('skips the rules of typed values (secret, bounds, options items): only the type is reported', () => {
    assertOnlyWarning(withProp({ type: '$.slack.user', secret: true, min: 1, options: [1, 'x'] }), 'props.p.type', /^prop `p`: \$\.slack\.user is an app-specific type/);
  });
});

describe('app-specific props: configured value', () => {
  it('keeps the ids as given, unchecked', () => {
    assert.deepEqual(configure({ name: 'channel', type: '$.discord.channel' }, 12345), { values: { channel: 12345 }, problems: [] });
    assert.deepEqual(configure({ name: 'channels', type: '$.discord.channel[]' }, ['a', 'b']), { values: { channels: ['a', 'b'] }, problems: [] });
  });

  it('requires a value unless optional, and applies the static-value limit', () => {
    assert.deepEqual(
      configure({ name: 'channel', type: '$.discord.channel' }).problems.map((p) => p.message),
      ['prop `channel` is required; give it a value in configured_props'],
    );
    assert.deepEqual(configure({ name: 'channel', type: '$.discord.channel', optional: true }), { values: {}, problems: [] });
    assert.match(configure({ name: 'channel', type: '$.discord.channel' }, 'x'.repeat(STATIC_VALUE_LIMIT)).problems[0]?.message ?? '', /^prop `channel` is 65538 bytes/);
  });
});
