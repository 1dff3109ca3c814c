// The table of prop kinds: every kind folder is registered, every type has one kind, and a kind
// added to the table (one made up here) is validated, checked, bound and hinted with no other change.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { validateComponent, validateDynamicProps } from '../../../runtime/components/validate';
import type { ConfigurableProp } from '../../../runtime/contract/component-shape';
import { formProblem } from '../../../runtime/http/api/form-problems';
import { checkConfiguredProps } from '../../../runtime/props/configured-props';
import { bindProp, PROP_BINDINGS } from '../../../runtime/props/prop-bindings';
import { kindOf, PROP_KINDS, propTypes } from '../../../runtime/props/prop-kinds';
import { configuredValue, type PropBinding, type PropKind } from '../../../runtime/props/shared/kind-interface';
import { bindingHost, problemsOf, withProp } from '../../helpers/component-checks';

describe('the prop kind table', () => {
  it('registers the kind of every props/<kind>/*-kind.ts file', async () => {
    const root = path.join('runtime', 'props');
    const files = fs
      .readdirSync(root, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .flatMap((d) =>
        fs
          .readdirSync(path.join(root, d.name))
          .filter((f) => f.endsWith('-kind.ts'))
          .map((f) => path.join(d.name, f)),
      );
    assert.ok(files.length >= 11, files.join(', '));
    for (const file of files) {
      const exported = Object.values((await import(`../../../runtime/props/${file.split(path.sep).join('/')}`)) as Record<string, unknown>);
      const kinds = exported.filter((v): v is PropKind => typeof v === 'object' && v !== null && 'types' in v && 'name' in v);
      assert.equal(kinds.length, 1, `${file} exports one kind`);
      assert.ok(PROP_KINDS.includes(kinds[0]!), `${file}: ${kinds[0]!.name} is not in PROP_KINDS (runtime/props/prop-kinds.ts)`);
      assert.equal(path.dirname(file), kinds[0]!.name, `${file}: a kind is named after its folder`);
    }
  });

  it('gives every type one kind, and binds only types of a kind', () => {
    const types = propTypes();
    assert.equal(new Set(types).size, types.length);
    for (const type of types) assert.equal(PROP_KINDS.filter((k) => k.types.includes(type) || k.matches?.(type)).length, 1, type);
    for (const type of PROP_BINDINGS.keys()) assert.ok(kindOf(type), `${type} is bound in prop-bindings.ts but has no kind in prop-kinds.ts`);
  });

  it('binds a type of no binding to its configured value, else its default, even one named like an Object method', () => {
    assert.equal(bindProp('p', { type: 'toString', default: 1 }, bindingHost()), 1);
    assert.deepEqual(bindProp('p', { type: '$.interface.timer', default: 1 }, bindingHost({ props: { p: { intervalSeconds: 5 } } })), { intervalSeconds: 5 });
  });
});

describe('a prop kind added to the table', () => {
  const HEX = /^#[0-9a-f]{6}$/i;
  /** A made-up kind: a color, entered as #rrggbb, that `this.<prop>` gives as its red, green and blue parts. */
  const colorKind: PropKind = {
    name: 'color',
    types: ['color'],
    dynamic: true,
    checkDefinition(prop, _type, report) {
      if (prop.default !== undefined && !HEX.test(String(prop.default))) report('default', `default must be a color such as "#ff8800", not ${JSON.stringify(prop.default)}`);
    },
    checkValue(prop, value) {
      if (value === undefined || value === null) return prop.optional ? null : { problem: `prop \`${prop.name}\` is required; give it a color such as "#ff8800"` };
      return typeof value === 'string' && HEX.test(value) ? { value: value.toLowerCase() } : { problem: `prop \`${prop.name}\` must be a color such as "#ff8800"` };
    },
    askFor: () => 'pick a color',
  };
  const bindColor: PropBinding = (name, def, host) => {
    const hex = String(configuredValue(name, def, host));
    return { hex, rgb: [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) };
  };

  before(() => {
    PROP_KINDS.push(colorKind);
    PROP_BINDINGS.set('color', bindColor);
  });
  after(() => {
    PROP_KINDS.splice(PROP_KINDS.indexOf(colorKind), 1);
    PROP_BINDINGS.delete('color');
  });

  it('is a prop type components may declare, and its definition check runs', () => {
    assert.equal(validateComponent(withProp({ type: 'color', optional: true, default: '#FF8800' })).configurable_props[0]!.type, 'color');
    assert.deepEqual(problemsOf(withProp({ type: 'color', optional: true, default: 'orange' })), [{ path: 'props.p.default', message: 'prop `p`: default must be a color such as "#ff8800", not "orange"' }]);
    assert.deepEqual(validateDynamicProps({ c: { type: 'color' } }, 'action'), { errors: [], warnings: [] });
    assert.match(problemsOf(withProp({ type: 'colour' }))[0]!.message, /use one of app, .*\$\.interface\.apphook, color$/);
  });

  it('has its configured values checked and kept', () => {
    const props: ConfigurableProp[] = [{ name: 'accent', type: 'color' }];
    assert.deepEqual(checkConfiguredProps(props, { accent: '#00AAFF' }), { values: { accent: '#00aaff' }, problems: [] });
    assert.deepEqual(checkConfiguredProps(props, { accent: 'blue' }).problems, [{ path: 'configured_props.accent', message: 'prop `accent` must be a color such as "#ff8800"' }]);
    assert.equal(formProblem(props[0]!, checkConfiguredProps(props, {}).problems[0]!.message), 'Required: pick a color.');
  });

  it('is bound inside the component host', () => {
    assert.deepEqual(bindProp('accent', { type: 'color', default: '#000000' }, bindingHost({ props: { accent: '#00aaff' } })), { hex: '#00aaff', rgb: [0, 170, 255] });
  });
});
