// `$.interface.timer` props: a schedule that runs the source (props/timer/timer-scheduler.ts).
import type { PropKind } from '../shared/kind-interface';
import { parseTimerSpec } from './timer-spec';

/**
 * `$.interface.timer` props: the default is the schedule, which the user may replace; a `static`
 * schedule is the source's fixed one, used whatever is configured (as Pipedream does).
 */
export const timerKind: PropKind = {
  name: 'timer',
  types: ['$.interface.timer'],
  onlyIn: 'source',
  dynamic: true,
  defaultIsConfig: true,
  checkDefinition(prop, _type, report) {
    for (const field of ['default', 'static'] as const) {
      if (prop[field] === undefined) continue;
      const parsed = parseTimerSpec(prop[field], field);
      if ('problem' in parsed) report(field, parsed.problem);
    }
  },
  checkValue(prop, value) {
    if (prop.static !== undefined) {
      const fixed = parseTimerSpec(prop.static, `prop \`${prop.name}\` static`);
      return 'problem' in fixed ? { problem: fixed.problem } : { value: fixed.spec };
    }
    if (value === undefined || value === null) {
      return prop.default === undefined ? { problem: `prop \`${prop.name}\` has no default schedule; configure one, e.g. {"intervalSeconds": 900} or {"cron": "0 * * * *"}` } : null;
    }
    const parsed = parseTimerSpec(value, `prop \`${prop.name}\``);
    return 'problem' in parsed ? { problem: parsed.problem } : { value: parsed.spec };
  },
  askFor: () => 'set a schedule',
};
