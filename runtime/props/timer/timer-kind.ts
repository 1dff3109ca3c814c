// `$.interface.timer` props: a schedule that runs the source (props/timer/timer-scheduler.ts).
import type { PropKind } from '../shared/kind-interface';
import { parseTimerSpec } from './timer-spec';

/** `$.interface.timer` props: the default is the schedule, which the user may replace. */
export const timerKind: PropKind = {
  name: 'timer',
  types: ['$.interface.timer'],
  onlyIn: 'source',
  dynamic: true,
  defaultIsConfig: true,
  checkDefinition(prop, _type, report) {
    if (prop.default === undefined) return;
    const parsed = parseTimerSpec(prop.default, 'default');
    if ('problem' in parsed) report('default', parsed.problem);
  },
  checkValue(prop, value) {
    if (value === undefined || value === null) {
      return prop.default === undefined
        ? { problem: `prop \`${prop.name}\` has no default schedule; configure one, e.g. {"intervalSeconds": 900} or {"cron": "0 * * * *"}` }
        : null;
    }
    const parsed = parseTimerSpec(value, `prop \`${prop.name}\``);
    return 'problem' in parsed ? { problem: parsed.problem } : { value: parsed.spec };
  },
  askFor: () => 'set a schedule',
};
