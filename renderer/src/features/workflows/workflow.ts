import type { ConfigurableProp } from '../../../../runtime/contract/component-shape';
import type { TimerSchedule, WorkflowTriggerInput, WorkflowView } from '../../../../runtime/contract/workflow-api';
import { downloadFile } from '../../ui/download';

/** A step name the service accepts: an identifier other than `trigger` (it is `steps.<name>`). */
export const STEP_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What the API shows in place of a secret prop's value; sent back unchanged, the service keeps the stored value. */
export const SECRET_MASK = '********';

/** A value that is one whole `{{…}}` reference (it takes the referenced value's type). */
const WHOLE_REFERENCE = /^\s*\{\{[^{}]+\}\}\s*$/;

/** Why a step name is refused, or null. */
export function stepNameProblem(name: string, others: string[]): string | null {
  if (!STEP_NAME.test(name)) return 'Letters, digits and _ only, not starting with a digit.';
  if (name === 'trigger') return '"trigger" is the trigger\'s name; pick another.';
  if (others.includes(name)) return 'Another step has this name.';
  return null;
}

/** A step name from a component name: "Parse order" → "parse_order". */
export function stepNameFor(componentName: string, taken: string[]): string {
  let base =
    componentName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'step';
  if (/^[0-9]/.test(base)) base = `step_${base}`;
  if (base === 'trigger') base = 'trigger_step';
  let name = base;
  for (let i = 2; taken.includes(name); i++) name = `${base}_${i}`;
  return name;
}

/** Props a step's form shows: inputs the user gives (interfaces and services are not for actions' forms). */
export function stepFormProps(props: ConfigurableProp[]): ConfigurableProp[] {
  return props.filter((p) => !p.hidden && !p.type.startsWith('$.'));
}

/** Whether a prop is typed into a multi-line JSON box (objects, arrays, any, http requests). */
export const isJsonProp = (p: ConfigurableProp) => p.type === 'object' || p.type === 'any' || p.type === 'http_request' || p.type.endsWith('[]');

/**
 * The configured value of a step prop typed as text. Text props keep the text (references inside
 * it are written in by the service); for other types a whole `{{…}}` reference stays a reference,
 * JSON is parsed (`42`, `true`, `{"id": "{{steps.trigger.event.body.id}}"}`), and anything else is
 * sent as text for the service to check. Empty text leaves the prop unset.
 */
export function stepValue(prop: ConfigurableProp, text: string): unknown {
  if (text.trim() === '') return undefined;
  if (prop.type === 'string') return text;
  if (WHOLE_REFERENCE.test(text)) return text.trim();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Why a step prop's text cannot be its type's value (a whole reference is always accepted), or null. */
export function stepValueProblem(prop: ConfigurableProp, text: string): string | null {
  if (text.trim() === '' || WHOLE_REFERENCE.test(text) || prop.type === 'string' || prop.type === 'any' || prop.type === 'alert') return null;
  const value = stepValue(prop, text);
  const ok =
    prop.type === 'integer'
      ? Number.isInteger(value)
      : prop.type === 'boolean'
        ? typeof value === 'boolean'
        : prop.type.endsWith('[]')
          ? Array.isArray(value)
          : prop.type === 'object' || prop.type === 'http_request' || prop.type === 'app' || prop.type === 'data_store'
            ? value !== null && typeof value === 'object' && !Array.isArray(value)
            : true;
  if (ok) return null;
  const shape = prop.type === 'integer' ? 'a whole number' : prop.type === 'boolean' ? 'true or false' : prop.type.endsWith('[]') ? 'a JSON array' : 'a JSON object';
  return `Give ${shape}, or one whole {{steps…}} reference.`;
}

/** A configured value as the text its input shows (the inverse of `stepValue`). */
export function stepText(prop: ConfigurableProp, value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string' && (prop.type === 'string' || WHOLE_REFERENCE.test(value))) return value;
  return JSON.stringify(value, null, isJsonProp(prop) ? 2 : undefined);
}

/** References a step's props can use: the trigger event's parts and what earlier steps returned and exported. */
export function referenceSuggestions(triggerType: WorkflowTriggerInput['type'], earlier: string[]): string[] {
  const refs = ['{{steps.trigger.event}}'];
  if (triggerType === 'http') for (const part of ['body', 'query', 'headers', 'method', 'path']) refs.push(`{{steps.trigger.event.${part}}}`);
  if (triggerType === 'timer') refs.push('{{steps.trigger.event.timestamp}}');
  for (const name of earlier) refs.push(`{{steps.${name}.$return_value}}`, `{{steps.${name}.$summary}}`);
  return refs;
}

/** A schedule in words. */
export function describeSchedule(s: TimerSchedule): string {
  return 'cron' in s ? `cron ${s.cron}${s.timezone ? ` (${s.timezone})` : ''}` : `every ${s.intervalSeconds} s`;
}

/** A trigger in words (without the endpoint URL, shown on its own). */
export function describeTrigger(t: WorkflowView['trigger']): string {
  switch (t.type) {
    case 'http':
      return t.custom_response ? 'HTTP request (answered by $.respond)' : 'HTTP request';
    case 'source':
      return `events of ${t.source_id}${t.event_name ? ` on channel ${t.event_name}` : ''}`;
    case 'timer':
      return `timer, ${describeSchedule(t.schedule)}`;
    case 'manual':
      return 'manual runs only';
  }
}

/** Saves JSON as a file the browser downloads. */
export function downloadJson(filename: string, data: unknown): void {
  downloadFile(filename, `${JSON.stringify(data, null, 2)}\n`, 'application/json');
}

/** A file name from a workflow name: "Orders flow" → "orders-flow.workflow.json". */
export const exportFilename = (name: string) =>
  `${
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'workflow'
  }.workflow.json`;

/** A duration in ms, briefly. */
export const duration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`);
