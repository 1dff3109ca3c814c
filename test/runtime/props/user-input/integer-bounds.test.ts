// `min` and `max`: allowed on integer and integer[] props (checked when the component is saved),
// and applied to a configured integer and to each item of an integer[].
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertOnlyProblem, assertValid, component, configure, problemsOf, withProp } from '../../../helpers/component-checks';

describe('integer bounds: definition', () => {
  it('allows min and max only on integer and integer[] props', () => {
    const problems = problemsOf(component({ props: { limit: { type: 'string', min: 1, max: 5 } } }));
    assert.deepEqual(problems, [
      { path: 'props.limit.min', message: 'prop `limit`: min is allowed only on integer and integer[] props; remove min or change the type to integer' },
      { path: 'props.limit.max', message: 'prop `limit`: max is allowed only on integer and integer[] props; remove max or change the type to integer' },
    ]);
  });

  it('requires integer bounds with min <= max', () => {
    assertValid(withProp({ type: 'integer', min: 1, max: 1 }));
    assertOnlyProblem(withProp({ type: 'integer', min: 0.5 }), 'props.p.min', /^prop `p`: min must be an integer, not 0\.5/);
    assertOnlyProblem(withProp({ type: 'integer', min: 10, max: 1 }), 'props.p.min', /^prop `p`: min \(10\) is greater than max \(1\)/);
  });

  it('requires a default within min and max', () => {
    assertValid(withProp({ type: 'integer', optional: true, min: 1, max: 100, default: 100 }));
    assertOnlyProblem(withProp({ type: 'integer', optional: true, min: 1, max: 100, default: 101 }), 'props.p.default', /^prop `p`: default 101 is outside the allowed range 1 to 100/);
    assertOnlyProblem(withProp({ type: 'integer', optional: true, min: 5, default: 0 }), 'props.p.default', /outside the allowed range 5 to …/);
  });
});

describe('integer bounds: configured value', () => {
  it('applies the bounds to each item of an integer[]', () => {
    const prop = { name: 'ids', type: 'integer[]', min: 1, max: 9 };
    assert.deepEqual(configure(prop, [1, 9]), { values: { ids: [1, 9] }, problems: [] });
    assert.deepEqual(
      configure(prop, [1, 0]).problems.map((p) => p.message),
      ['prop `ids` item 1 must be at least 1, not 0'],
    );
    assert.deepEqual(
      configure(prop, [10]).problems.map((p) => p.message),
      ['prop `ids` item 0 must be at most 9, not 10'],
    );
  });
});
