import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { uniqueSlug } from '../../../runtime/lib/slug';
import { checkConfiguredProps } from '../../../runtime/props/configured-props';

describe('configured props', () => {
  const props = [
    { name: 'http', type: '$.interface.http' },
    { name: 'limit', type: 'integer' },
    { name: 'tags', type: 'string[]', optional: true },
    { name: 'greeting', type: 'string', default: 'hi' },
  ];
  it('reports every problem, naming the prop and the fix', () => {
    const { problems } = checkConfiguredProps(props, { tags: ['a', 2], nope: 1 });
    assert.deepEqual(problems.map((p) => p.path).sort(), ['configured_props.limit', 'configured_props.nope', 'configured_props.tags']);
    assert.match(problems.find((p) => p.path.endsWith('limit'))!.message, /prop `limit` is required/);
    assert.match(problems.find((p) => p.path.endsWith('tags'))!.message, /item 1 must be a string/);
  });
  it('keeps valid values and leaves defaults to the component', () => {
    assert.deepEqual(checkConfiguredProps(props, { limit: 5 }), { values: { limit: 5 }, problems: [] });
    assert.match(checkConfiguredProps(props, { limit: 1.5 }).problems[0]!.message, /must be an integer/);
    const bounded = [{ name: 'limit', type: 'integer', min: 1, max: 10 }];
    assert.match(checkConfiguredProps(bounded, { limit: 0 }).problems[0]!.message, /prop `limit` must be at least 1, not 0/);
    assert.match(checkConfiguredProps(bounded, { limit: 11 }).problems[0]!.message, /must be at most 10/);
  });
  it('does not require a hidden prop, and still checks a value given to one', () => {
    const hidden = [
      { name: 'url', type: 'string', hidden: true },
      { name: 'timer', type: '$.interface.timer', hidden: true },
    ];
    assert.deepEqual(checkConfiguredProps(hidden, {}), { values: {}, problems: [] });
    assert.deepEqual(checkConfiguredProps(hidden, { url: 'https://example.com' }).values, { url: 'https://example.com' });
    assert.match(checkConfiguredProps(hidden, { url: 3 }).problems[0]!.message, /prop `url` must be a string/);
  });
});

describe('name slugs', () => {
  it('are unique per account with numeric suffixes', () => {
    assert.equal(uniqueSlug('My Source!', new Set()), 'my-source');
    assert.equal(uniqueSlug('My Source', new Set(['my-source'])), 'my-source-1');
    assert.equal(uniqueSlug('My Source', new Set(['my-source', 'my-source-1'])), 'my-source-2');
    assert.equal(uniqueSlug('***', new Set()), 'source');
  });
});
