// Props as a tool's input JSON Schema: each user-input type, bounds, defaults, static options as
// enums, labels and descriptions, hints for async options and reloadProps, and the props an agent
// never gives (apps, folders, alerts, hidden ones). Checked with a JSON Schema validator too.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import type { ConfigurableProp } from '../../../../runtime/contract/component-shape';
import { OPTIONS_TOOL, RELOAD_TOOL, toolInput } from '../../../../runtime/engine/tools/tool-schema';

const PROPS: ConfigurableProp[] = [
  { name: 'acme', type: 'app', app: 'acme' },
  { name: 'text', type: 'string', label: 'Text', description: 'Some text.' },
  { name: 'count', type: 'integer', min: 1, max: 10, optional: true, default: 3 },
  { name: 'flag', type: 'boolean' },
  {
    name: 'tags',
    type: 'string[]',
    options: [
      { label: 'Red', value: 'r' },
      { label: 'Blue', value: 'b' },
    ],
  },
  { name: 'sizes', type: 'integer[]', min: 0, max: 5, optional: true },
  { name: 'checks', type: 'boolean[]', optional: true },
  { name: 'meta', type: 'object', optional: true },
  { name: 'payload', type: 'any', optional: true },
  { name: 'mode', type: 'string', options: ['fast', 'slow'], optional: true, default: 'fast' },
  { name: 'store', type: 'data_store', optional: true },
  { name: 'request', type: 'http_request', optional: true },
  { name: 'channel', type: '$.acme.channel', optional: true },
  { name: 'pick', type: 'string', hasOptionsMethod: true },
  { name: 'kind', type: 'string', reloadProps: true, options: ['a', 'b'] },
  { name: 'secret', type: 'string', secret: true, optional: true },
  { name: 'hiddenOne', type: 'string', hidden: true, optional: true },
  { name: 'folder', type: 'dir', optional: true },
  { name: 'note', type: 'alert', alertType: 'info', content: 'FYI' },
];

describe('props as a tool input schema', () => {
  const input = toolInput(PROPS, 'every_kind', [{ id: 'ds_1', name: 'orders' }]);
  const p = input.schema.properties;

  it('types each user input, with bounds, defaults and array items', () => {
    assert.deepEqual(p.text, { title: 'Text', description: 'Some text.', type: 'string' });
    assert.deepEqual(p.count, { type: 'integer', minimum: 1, maximum: 10, default: 3 });
    assert.deepEqual(p.flag, { type: 'boolean' });
    assert.deepEqual(p.sizes, { type: 'array', items: { type: 'integer', minimum: 0, maximum: 5 } });
    assert.deepEqual(p.checks, { type: 'array', items: { type: 'boolean' } });
    assert.deepEqual(p.meta, { type: 'object' });
    assert.deepEqual(p.payload, {});
    assert.equal(p.secret?.type, 'string');
    assert.deepEqual(input.schema.required, ['text', 'flag', 'tags', 'pick', 'kind']);
  });

  it('turns static options into enums, naming labels that differ from values', () => {
    assert.deepEqual(p.tags?.items, { type: 'string', enum: ['r', 'b'] });
    assert.match(p.tags?.description ?? '', /"r" \(Red\), "b" \(Blue\)/);
    assert.deepEqual(p.mode, { type: 'string', enum: ['fast', 'slow'], default: 'fast' });
  });

  it('names data stores, requests, app ids, and the helper tools for async options and reloadProps', () => {
    assert.deepEqual(p.store?.enum, ['ds_1']);
    assert.match(p.store?.description ?? '', /ds_1 \(orders\)/);
    assert.deepEqual(p.request?.required, ['url']);
    assert.match(p.channel?.description ?? '', /acme app/);
    assert.ok(p.pick?.description?.includes(`${OPTIONS_TOOL} tool: call it with {"tool": "every_kind", "prop": "pick"}`));
    assert.ok(p.kind?.description?.includes(RELOAD_TOOL));
    assert.deepEqual(input.remoteOptions, ['pick']);
    assert.deepEqual(input.storeProps, ['store']);
    assert.equal(input.dynamic, true);
    assert.equal(input.schema.additionalProperties, true);
  });

  it('says a withLabel prop takes the value or {label, value}, and keeps its value type (issue 45)', () => {
    const labelled = toolInput([{ name: 'tableId', type: 'string', withLabel: true, hasOptionsMethod: true }], 't', []).schema.properties.tableId;
    assert.equal(labelled?.type, 'string');
    assert.match(labelled?.description ?? '', /reads it with its label .*give the value.*or \{"label": "…", "value": …\}/);
  });

  it('leaves out what the agent never gives: apps (bound to accounts), folders, alerts, hidden props', () => {
    for (const name of ['acme', 'folder', 'note', 'hiddenOne']) assert.equal(p[name], undefined, name);
    assert.deepEqual(
      input.appProps.map((a) => a.name),
      ['acme'],
    );
    assert.equal(toolInput([{ name: 'x', type: 'string' }], 't', []).schema.additionalProperties, false);
  });

  it('is a JSON Schema a validator compiles and applies', () => {
    const validate = new Ajv({ strict: false }).compile(input.schema);
    assert.ok(validate({ text: 'hi', flag: true, tags: ['r'], pick: 'x', kind: 'a', count: 4, sizes: [1] }), JSON.stringify(validate.errors));
    assert.equal(validate({ text: 'hi', flag: true, tags: ['green'], pick: 'x', kind: 'a' }), false);
    assert.equal(validate({ text: 'hi', flag: true, tags: [], pick: 'x', kind: 'a', count: 11 }), false);
  });
});
