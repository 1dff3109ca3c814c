// withLabel props (issue 45): values kept with the label they were chosen by, as Pipedream gives
// them, whichever form a client sends; other props read connect-react's `__lv` as its value.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConfigurableProp } from '../../../../runtime/contract/component-shape';
import { checkConfiguredProps, readConfigured } from '../../../../runtime/props/configured-props';
import { configuredValue } from '../../../../runtime/props/shared/kind-interface';
import { bindingHost } from '../../../helpers/component-checks';

const table: ConfigurableProp = { name: 'tableId', type: 'string', withLabel: true };
const fields: ConfigurableProp = { name: 'fieldIds', type: 'string[]', withLabel: true, optional: true };
const plain: ConfigurableProp = { name: 'book', type: 'string' };

describe('withLabel props', () => {
  it('keep {label, value}, given as it is, as {"__lv": …} or as a plain value (labelled with its own text)', () => {
    const chosen = { label: 'Projects', value: 'tb_1' };
    for (const given of [chosen, { __lv: chosen }]) assert.deepEqual(checkConfiguredProps([table], { tableId: given }), { values: { tableId: chosen }, problems: [] });
    assert.deepEqual(checkConfiguredProps([table], { tableId: 'tb_1' }).values, { tableId: { label: 'tb_1', value: 'tb_1' } });
    assert.deepEqual(checkConfiguredProps([table], { tableId: { value: 'tb_1' } }).values, { tableId: { label: 'tb_1', value: 'tb_1' } });
  });

  it('label a plain value with its static option', () => {
    const picked: ConfigurableProp = {
      name: 'size',
      type: 'integer',
      withLabel: true,
      options: [
        { label: 'Small', value: 1 },
        { label: 'Large', value: 9 },
      ],
    };
    assert.deepEqual(checkConfiguredProps([picked], { size: 9 }).values, { size: { label: 'Large', value: 9 } });
  });

  it('keep each item of an array type with its label, in every form', () => {
    const want = [
      { label: 'Name', value: 'fld1' },
      { label: 'fld2', value: 'fld2' },
    ];
    for (const given of [[{ label: 'Name', value: 'fld1' }, 'fld2'], { __lv: [{ label: 'Name', value: 'fld1' }, { value: 'fld2' }] }, [{ __lv: { label: 'Name', value: 'fld1' } }, 'fld2']]) {
      assert.deepEqual(checkConfiguredProps([fields], { fieldIds: given }).values, { fieldIds: want }, JSON.stringify(given));
    }
  });

  it("check the value inside against the prop's type, naming the prop", () => {
    assert.deepEqual(checkConfiguredProps([table], { tableId: { label: 'Three', value: 3 } }).problems, [{ path: 'configured_props.tableId', message: 'prop `tableId` must be a string, not 3' }]);
    assert.match(checkConfiguredProps([fields], { fieldIds: [{ label: 'x', value: 1 }] }).problems[0]!.message, /item 0 must be a string/);
    assert.match(checkConfiguredProps([table], {}).problems[0]!.message, /prop `tableId` is required/);
  });

  it('give options and additionalProps the labeled values too, unchecked', () => {
    assert.deepEqual(readConfigured([table, plain], { tableId: 'tb_1', book: { __lv: { label: 'General', value: 'general' } }, other: 1 }), {
      tableId: { label: 'tb_1', value: 'tb_1' },
      book: 'general',
      other: 1,
    });
  });

  it('give the component a labeled default when nothing is configured', () => {
    assert.deepEqual(configuredValue('tableId', { type: 'string', withLabel: true, default: 'tb_9' }, bindingHost()), { label: 'tb_9', value: 'tb_9' });
    assert.equal(configuredValue('book', { type: 'string', default: 'general' }, bindingHost()), 'general');
  });
});

describe('props without withLabel', () => {
  it('read {"__lv": …} as its value, and keep a {label, value} object given to an object prop', () => {
    assert.deepEqual(checkConfiguredProps([plain], { book: { __lv: { label: 'General', value: 'general' } } }).values, { book: 'general' });
    const tags: ConfigurableProp = { name: 'tags', type: 'string[]' };
    assert.deepEqual(checkConfiguredProps([tags], { tags: { __lv: [{ label: 'A', value: 'a' }] } }).values, { tags: ['a'] });
    const obj: ConfigurableProp = { name: 'o', type: 'object' };
    assert.deepEqual(checkConfiguredProps([obj], { o: { label: 'x', value: 1 } }).values, { o: { label: 'x', value: 1 } });
    assert.match(checkConfiguredProps([plain], { book: { label: 'General', value: 'general' } }).problems[0]!.message, /must be a string/);
  });
});
