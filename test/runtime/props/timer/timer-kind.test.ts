// `$.interface.timer` props: a default schedule (checked when the component is saved) that a
// configured one replaces.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConfigurableProp } from '../../../../runtime/contract/component-shape';
import { timerKind } from '../../../../runtime/props/timer/timer-kind';
import { assertOnlyProblem, assertValid, configure, withProp } from '../../../helpers/component-checks';

describe('timer props: definition', () => {
  it('accepts a timer default of intervalSeconds or cron', () => {
    assertValid(withProp({ type: '$.interface.timer', default: { intervalSeconds: 900 } }));
    assertValid(withProp({ type: '$.interface.timer', default: { cron: '0 0 * * *' } }));
    assertValid(withProp({ type: '$.interface.timer' }));
  });

  it('rejects any other timer default, saying what to give', () => {
    const bad: unknown[] = [{ interval: 60 }, { intervalSeconds: 0 }, { intervalSeconds: 1.5 }, { cron: ' ' }, { intervalSeconds: 60, cron: '* * * * *' }, 60];
    for (const value of bad) {
      assertOnlyProblem(
        withProp({ type: '$.interface.timer', default: value }),
        'props.p.default',
        /^prop `p`: default: (intervalSeconds must be a whole number|cron is empty|give either intervalSeconds or cron, not both|expected \{ intervalSeconds: 900 \} or \{ cron|neither intervalSeconds nor cron is set)/,
      );
    }
  });
});

describe('timer props: static schedules (issue 21)', () => {
  const fixed: ConfigurableProp = { name: 'timer', type: '$.interface.timer', static: { intervalSeconds: 900 } };

  it('accepts a static schedule and checks it as a default is checked', () => {
    assertValid(withProp({ type: '$.interface.timer', static: { intervalSeconds: 900 } }));
    assertOnlyProblem(withProp({ type: '$.interface.timer', static: { intervalSeconds: 0 } }), 'props.p.static', /^prop `p`: static: intervalSeconds must be a whole number/);
  });

  it('uses the static schedule as the value, with nothing configured or whatever is', () => {
    assert.deepEqual(configure(fixed), { values: { timer: { intervalSeconds: 900 } }, problems: [] });
    assert.deepEqual(configure(fixed, { cron: '* * * * *' }).values, { timer: { intervalSeconds: 900 } });
  });
});

describe('timer props: configured value', () => {
  const timer: ConfigurableProp = { name: 'timer', type: '$.interface.timer', default: { intervalSeconds: 60 } };

  it('keeps a configured schedule as parsed', () => {
    assert.deepEqual(configure(timer, { cron: '0 * * * *' }), { values: { timer: { cron: '0 * * * *' } }, problems: [] });
    assert.deepEqual(configure(timer, { intervalSeconds: 900 }).values, { timer: { intervalSeconds: 900 } });
  });

  it('leaves the default schedule to the component when none is configured', () => {
    assert.deepEqual(configure(timer), { values: {}, problems: [] });
    assert.deepEqual(configure(timer, null), { values: {}, problems: [] });
  });

  it('requires a schedule when the prop has no default, and names the form to set it', () => {
    const { problems } = configure({ name: 'timer', type: '$.interface.timer' });
    assert.deepEqual(problems, [{ path: 'configured_props.timer', message: 'prop `timer` has no default schedule; configure one, e.g. {"intervalSeconds": 900} or {"cron": "0 * * * *"}' }]);
    assert.equal(timerKind.askFor?.(timer), 'set a schedule');
  });

  it('rejects a configured schedule that is not one, naming the prop', () => {
    const { values, problems } = configure(timer, { cron: 'nope' });
    assert.deepEqual(values, {});
    assert.equal(problems.length, 1);
    assert.match(problems[0]!.message, /^prop `timer`: cron "nope" is not a valid cron expression/);
  });
});
