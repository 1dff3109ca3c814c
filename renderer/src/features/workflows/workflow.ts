import type { ConfigurableProp } from '../../../../runtime/contract/component-shape';
import type { TimerSchedule, WorkflowView } from '../../../../runtime/contract/workflow-api';
import { downloadFile } from '../../ui/download';
import type { Suggestion } from '../props/ExpressionInput';

/** A step name the service accepts: an identifier other than `trigger` (it is `steps.<name>`). */
export const STEP_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What the API shows in place of a secret prop's value; sent back unchanged, the service keeps the stored value. */
export const SECRET_MASK = '********';

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

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `value` and every path inside it under `prefix`, nested keys flattened (an array by its first item), each with its value. */
export function flattenPaths(prefix: string, value: unknown, out: Suggestion[] = [], depth = 0): Suggestion[] {
  out.push({ path: prefix, sample: value });
  if (depth >= 6 || out.length > 300) return out;
  if (Array.isArray(value)) {
    if (value.length > 0) flattenPaths(`${prefix}[0]`, value[0], out, depth + 1);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) flattenPaths(IDENTIFIER.test(k) ? `${prefix}.${k}` : `${prefix}[${JSON.stringify(k)}]`, v, out, depth + 1);
  }
  return out;
}

/** What a step's output gives later steps: `steps.<name>.$return_value` and each export. */
export interface StepOutputSample {
  name: string;
  output?: { exports: Record<string, unknown>; ret: unknown };
}

/** References a step's values may use: the trigger event's fields (from sample events) and earlier steps' return values and exports (from their outputs). */
export function stepSuggestions(events: unknown[], earlier: StepOutputSample[]): Suggestion[] {
  const out: Suggestion[] = [];
  const seen = new Set<string>();
  const add = (list: Suggestion[]) => {
    for (const s of list) if (!seen.has(s.path) && seen.add(s.path)) out.push(s);
  };
  if (events.length === 0) add([{ path: 'steps.trigger.event', sample: undefined }]);
  for (const e of events) add(flattenPaths('steps.trigger.event', e));
  for (const step of earlier) {
    add(flattenPaths(`steps.${step.name}.$return_value`, step.output?.ret));
    for (const [k, v] of Object.entries(step.output?.exports ?? {})) add(flattenPaths(`steps.${step.name}${IDENTIFIER.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`}`, v));
  }
  return out;
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
