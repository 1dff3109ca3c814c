// User-input props (boolean, integer, string, their arrays, object, any): a default of the type
// (checked when the component is saved), and a configured value of the type.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConfigurableProp } from '../../../../runtime/contract/component-shape';
import { bindProp } from '../../../../runtime/props/prop-bindings';
import { STATIC_VALUE_LIMIT } from '../../../../runtime/props/shared/prop-values';
import { userInputKind } from '../../../../runtime/props/user-input/user-input-kind';
import { assertOnlyProblem, assertValid, bindingHost, configure, withProp } from '../../../helpers/component-checks';

describe('user-input props: definition', () => {
  it('allows array forms only for boolean, integer and string', () => {
    for (const type of ['boolean[]', 'integer[]', 'string[]']) assertValid(withProp({ type }));
    assertOnlyProblem(withProp({ type: 'object[]' }), 'props.p.type', /^prop `p`: type "object\[\]" has no array form \(only boolean\[\], integer\[\], string\[\] exist\); use "object"/);
  });

  it('requires a default to match the prop type', () => {
    assertOnlyProblem(withProp({ type: 'string', optional: true, default: 3 }), 'props.p.default', /^prop `p`: default must be a string to match type string, not 3/);
    assertOnlyProblem(withProp({ type: 'integer', optional: true, default: 1.5 }), 'props.p.default', /default must be an integer/);
    assertOnlyProblem(withProp({ type: 'boolean', optional: true, default: 'true' }), 'props.p.default', /default must be a boolean/);
    assertOnlyProblem(withProp({ type: 'integer[]', optional: true, default: [1, 'two'] }), 'props.p.default', /default must be an array of integers/);
    assertOnlyProblem(withProp({ type: 'object', optional: true, default: [] }), 'props.p.default', /default must be an object/);
    assertValid(withProp({ type: 'string[]', optional: true, default: ['a', 'b'] }));
    assertValid(withProp({ type: 'any', optional: true, default: [1, 'two', null] }));
  });
});

describe('user-input props: configured value and binding', () => {
  const message = (prop: ConfigurableProp, value: unknown) => configure(prop, value).problems.map((p) => p.message);

  it('keeps a value of the type as given', () => {
    const cases: Array<[string, unknown]> = [
      ['string', 'hi'],
      ['integer', 3],
      ['boolean', false],
      ['object', { a: 1 }],
      ['any', [1, 'x']],
      ['string[]', ['a']],
      ['boolean[]', [true]],
    ];
    for (const [type, value] of cases) assert.deepEqual(configure({ name: 'p', type }, value), { values: { p: value }, problems: [] }, type);
  });

  it('requires a value unless the prop is optional or has a default', () => {
    assert.deepEqual(message({ name: 'p', type: 'string' }, undefined), ['prop `p` is required; give it a value in configured_props']);
    assert.deepEqual(configure({ name: 'p', type: 'string', optional: true }), { values: {}, problems: [] });
    assert.deepEqual(configure({ name: 'p', type: 'string', default: 'x' }, null), { values: {}, problems: [] });
  });

  it('names what the value must be', () => {
    assert.deepEqual(message({ name: 'p', type: 'object' }, []), ['prop `p` must be an object, not []']);
    assert.deepEqual(message({ name: 'p', type: 'boolean' }, 'yes'), ['prop `p` must be a boolean, not "yes"']);
    assert.deepEqual(message({ name: 'p', type: 'integer[]' }, 3), ['prop `p` must be an array of integers']);
    assert.deepEqual(message({ name: 'p', type: 'integer[]' }, [1, 'two']), ['prop `p` item 1 must be an integer']);
  });

  it('rejects a value over the static-value limit', () => {
    assert.match(message({ name: 'p', type: 'string' }, 'x'.repeat(STATIC_VALUE_LIMIT))[0] ?? '', /^prop `p` is 65538 bytes as JSON text/);
  });

  it('asks a form to choose a boolean, and leaves other wording to the options', () => {
    assert.equal(userInputKind.askFor?.({ name: 'p', type: 'boolean' }), 'choose a value');
    assert.equal(userInputKind.askFor?.({ name: 'p', type: 'string', options: ['a'] }), undefined);
  });

  it('binds the configured value, else the default', () => {
    assert.equal(bindProp('p', { type: 'string', default: 'd' }, bindingHost({ props: { p: 'set' } })), 'set');
    assert.equal(bindProp('p', { type: 'string', default: 'd' }, bindingHost()), 'd');
  });
});
