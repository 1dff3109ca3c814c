// Alert props: a note the form shows; they take no configured value.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertValid, configure, problemsOf, withProp } from '../../../helpers/component-checks';

describe('alert props: definition', () => {
  it('requires alertType and content on alert props', () => {
    assertValid(withProp({ type: 'alert', alertType: 'warning', content: 'Careful' }));
    const problems = problemsOf(withProp({ type: 'alert', alertType: 'danger' }));
    assert.deepEqual(
      problems.map((p) => p.path),
      ['props.p.alertType', 'props.p.content'],
    );
    assert.match(problems[0]!.message, /^prop `p`: alertType must be one of info, neutral, warning, error, not "danger"/);
    assert.match(problems[1]!.message, /^prop `p`: content is required on alert props/);
  });
  it('takes its default as part of the note, even on a required prop', () => {
    assertValid(withProp({ type: 'alert', alertType: 'error', content: 'Stop', default: 'x' }));
  });
});

describe('alert props: configured value', () => {
  it('keeps nothing configured on an alert, and asks for nothing', () => {
    assert.deepEqual(configure({ name: 'note', type: 'alert', alertType: 'info', content: 'Hi' }, 'ignored'), { values: {}, problems: [] });
    assert.deepEqual(configure({ name: 'note', type: 'alert', alertType: 'info', content: 'Hi' }), { values: {}, problems: [] });
  });
});
