// Alert props: a note the form shows (info, neutral, warning or error); nothing is configured.
import type { PropKind } from '../shared/kind-interface';
import { showValue } from '../shared/prop-values';

const ALERT_TYPES = ['info', 'neutral', 'warning', 'error'];

/** `alert` props. */
export const alertKind: PropKind = {
  name: 'alert',
  types: ['alert'],
  dynamic: true,
  defaultIsConfig: true,
  checkDefinition(prop, _type, report) {
    if (typeof prop.alertType !== 'string' || !ALERT_TYPES.includes(prop.alertType)) {
      report('alertType', `alertType must be one of ${ALERT_TYPES.join(', ')}, not ${showValue(prop.alertType)}`);
    }
    if (typeof prop.content !== 'string') {
      report('content', `content is required on alert props: set it to the text (plain or Markdown) to show, not ${showValue(prop.content)}`);
    }
  },
};
