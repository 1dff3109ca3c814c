// `$.interface.apphook` props: accepted with a warning (another app's events do not happen
// offline); the other rules still apply, and nothing is configured.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateDynamicProps } from '../../../../runtime/components/validate';
import { configure, problemsOf, withProp } from '../../../helpers/component-checks';

describe('apphook props', () => {
  it('still checks the rules of every prop', () => {
    const desc = withProp({ type: '$.interface.apphook', appProp: 'github', secret: true });
    assert.deepEqual(
      problemsOf(desc).map((p) => p.path),
      ['props.p.secret'],
    );
  });

  it('is not among the types additionalProps may return', () => {
    const { errors, warnings } = validateDynamicProps({ hook: { type: '$.interface.apphook' } }, 'source');
    assert.deepEqual(errors, []);
    assert.equal(warnings.length, 2);
    assert.match(warnings[1]!.message, /^prop `hook`: \$\.interface\.apphook props are not among the types additionalProps may return/);
  });

  it('keeps nothing configured', () => {
    assert.deepEqual(configure({ name: 'hook', type: '$.interface.apphook' }, { x: 1 }), { values: {}, problems: [] });
  });
});
