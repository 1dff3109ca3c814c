import { parseTimerSpec } from '../props/timer/timer-spec';
import { slugify } from '../lib/slug';
import { ComponentError } from '../lib/error-kinds';
import { type ComponentProblem } from '../contract/component-shape';
import { expectedValue, matchesType, staticValueProblem } from '../props/prop-values';
import { isRecord as isPlainObject } from '../props/prop-shape';
import {
  PROP_TYPES,
  type ComponentDescription,
  type ConfigurableProp,
  type PropShape,
  type ValidComponent,
} from '../contract/component-shape';

type ComponentType = 'source' | 'action';

/** Where a prop is checked: the component's type (null when that type is itself invalid) and whether it came from `additionalProps`. */
interface PropContext {
  componentType: ComponentType | null;
  dynamic: boolean;
}

/** Records a problem on one field of the prop being checked: an error, or a warning (a rule Pipedream tolerates). */
type Report = (field: string, message: string, level?: 'warning') => void;

/** What a check found: errors (the component cannot run) and warnings (it runs; a rule of the spec or the registry is not followed). */
export interface Findings {
  errors: ComponentProblem[];
  warnings: ComponentProblem[];
}

const KNOWN_TYPES = new Set<string>(PROP_TYPES);
/** App-specific prop types such as `$.discord.channel` or `$.airtable.baseId[]`: a value picked from the app's data. */
const APP_SPECIFIC_TYPE = /^\$\.(?!interface\.|service\.)[a-z0-9_]+\.[A-Za-z0-9_.]+(\[\])?$/;
const TYPE_LIST = PROP_TYPES.join(', ');
const ARRAY_TYPES = PROP_TYPES.filter((t) => t.endsWith('[]')).join(', ');

/** Prop types that exist in only one kind of component (spec 2.5); elsewhere Pipedream ignores them (a warning). */
const ONLY_IN: Record<string, ComponentType> = {
  '$.interface.http': 'source',
  '$.interface.timer': 'source',
  '$.service.db': 'source',
  http_request: 'action',
};

/** Prop types that `additionalProps` may return (spec 2.5); registry code returns others too (alerts, dirs), and they work: a warning. */
const DYNAMIC_TYPES = new Set<string>([
  'app', 'boolean', 'boolean[]', 'integer', 'integer[]', 'string', 'string[]', 'object', 'any',
  '$.interface.http', '$.interface.timer', 'data_store', 'http_request', 'alert',
]);

/** For these types `default` is the configuration itself (schedule, request), not a user-input fallback. */
const DEFAULT_ON_REQUIRED = new Set(['$.interface.timer', 'http_request', 'alert', 'dir']);

const HOOK_NAMES = ['deploy', 'activate', 'deactivate'];
const DEDUPE_STRATEGIES = ['unique', 'greatest', 'last'];
const ALERT_TYPES = ['info', 'neutral', 'warning', 'error'];

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const SEMVER_NUMBER = '(0|[1-9]\\d*)';
const SEMVER_IDENT = '(0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)';
const SEMVER = new RegExp(
  `^${SEMVER_NUMBER}\\.${SEMVER_NUMBER}\\.${SEMVER_NUMBER}` +
    `(-${SEMVER_IDENT}(\\.${SEMVER_IDENT})*)?(\\+[0-9a-zA-Z-]+(\\.[0-9a-zA-Z-]+)*)?$`,
);

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/** A short rendering of a value for messages. */
function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Reports a broken `propDefinition`; returns true when it is broken (the prop then has no inherited type). */
function checkPropDefinition(prop: PropShape, report: Report): boolean {
  const def = prop.propDefinition;
  if (!def) return false;
  if (def.app === null) {
    report('propDefinition', 'the first element of propDefinition must be an app object; import the app file and use propDefinition: [app, "<name>"]');
    return true;
  }
  if (def.resolved) return false;
  report(
    'propDefinition',
    typeof def.name === 'string'
      ? `app "${def.app}" has no propDefinition "${def.name}"; fix the name or add "${def.name}" to the app's propDefinitions`
      : `the second element of propDefinition must be the name of one of app "${def.app}"'s propDefinitions, not ${show(def.name)}`,
  );
  return true;
}

function unknownTypeMessage(type: string): string {
  const base = type.slice(0, -2);
  if (type.endsWith('[]') && KNOWN_TYPES.has(base)) {
    return `type "${type}" has no array form (only ${ARRAY_TYPES} exist); use "${base}" or one of those`;
  }
  const near = PROP_TYPES.find((t) => t.toLowerCase() === type.toLowerCase());
  return near ? `"${type}" is not a prop type; did you mean "${near}"?` : `"${type}" is not a prop type; use one of ${TYPE_LIST}`;
}

/** Checks the prop's type against the known types and where it is used; returns the type when it is a known one. */
function checkType(prop: PropShape, context: PropContext, brokenDefinition: boolean, report: Report): string | null {
  const type = prop.type;
  if (typeof type !== 'string' || type === '') {
    // With a broken propDefinition the type was never inherited; that problem is already reported.
    if (!brokenDefinition) report('type', `type is required; set it to one of ${TYPE_LIST}`);
    return null;
  }
  if (APP_SPECIFIC_TYPE.test(type)) {
    report('type', `${type} is an app-specific type of Pipedream's; offline its value is not checked (give it as ${type.endsWith('[]') ? 'an array of the ids' : 'the id'} the app expects)`, 'warning');
    return null;
  }
  if (!KNOWN_TYPES.has(type)) {
    report('type', unknownTypeMessage(type));
    return null;
  }
  if (type === '$.interface.apphook') {
    report('type', `${type} props fire on another app's events, which do not happen offline; the source runs by timer, HTTP or "spout run" only`, 'warning');
  }
  const only = ONLY_IN[type];
  if (only && context.componentType && only !== context.componentType) {
    report('type', `${type} props belong in ${only}s; in a ${context.componentType} it is ignored (remove it)`, 'warning');
  }
  if (context.dynamic && !DYNAMIC_TYPES.has(type)) {
    report('type', `${type} props are not among the types additionalProps may return (spec 2.5); declare the prop in props instead`, 'warning');
  }
  return type;
}

/** Checks `default` rules that hold whatever the prop's type is. */
function checkDefaultPresence(prop: PropShape, type: string | null, report: Report): void {
  if (prop.default === undefined) return;
  const tooBig = staticValueProblem(prop.default);
  if (tooBig) report('default', `default ${tooBig}`);
  if (!prop.optional && !(type && DEFAULT_ON_REQUIRED.has(type))) {
    // Pipedream shows it as the prefilled value; the spec allows it only on optional props.
    report('default', 'default is allowed only on optional props (spec 2.5); it is used as the prefilled value: add optional: true or remove default', 'warning');
  }
}

function checkDefaultValue(prop: PropShape, type: string, report: Report): void {
  if (prop.default === undefined || matchesType(type, prop.default)) return;
  report('default', `default must be ${expectedValue(type)} to match type ${type}, not ${show(prop.default)}`);
}

function checkSecret(prop: PropShape, type: string, report: Report): void {
  // `secret: false` says nothing, and registry code writes it on any type.
  if (prop.secret !== undefined && prop.secret !== false && type !== 'string') {
    report('secret', 'secret is allowed only on string props; remove secret or change the type to string');
  }
}

function checkRange(prop: PropShape, type: string, report: Report): void {
  const bounds = (['min', 'max'] as const).filter((bound) => prop[bound] !== undefined);
  if (bounds.length === 0) return;
  // Bounds apply to an integer and to each item of an integer[] (spec 2.5's type table).
  if (type !== 'integer' && type !== 'integer[]') {
    for (const bound of bounds) report(bound, `${bound} is allowed only on integer and integer[] props; remove ${bound} or change the type to integer`);
    return;
  }
  for (const bound of bounds) {
    if (!Number.isInteger(prop[bound])) report(bound, `${bound} must be an integer, not ${show(prop[bound])}`);
  }
  const min = Number.isInteger(prop.min) ? prop.min : undefined;
  const max = Number.isInteger(prop.max) ? prop.max : undefined;
  if (min !== undefined && max !== undefined && min > max) {
    report('min', `min (${min}) is greater than max (${max}); swap them or fix one`);
  }
  const values = Array.isArray(prop.default) ? prop.default : [prop.default];
  for (const n of values.filter((v): v is number => Number.isInteger(v))) {
    if ((min !== undefined && n < min) || (max !== undefined && n > max)) {
      report('default', `default ${n} is outside the allowed range ${min ?? '…'} to ${max ?? '…'}; change default or the bounds`);
      return;
    }
  }
}

function isOption(itemType: string, option: unknown): boolean {
  if (isPlainObject(option) && 'label' in option && 'value' in option) {
    return typeof option.label === 'string' && matchesType(itemType, option.value);
  }
  return matchesType(itemType, option);
}

function checkOptions(prop: PropShape, type: string | null, report: Report): void {
  if (prop.useQuery === true && !prop.hasOptionsMethod) {
    report('useQuery', 'useQuery needs an async options method; define options({ query }) or remove useQuery');
  }
  if (prop.options === undefined) return;
  if (!Array.isArray(prop.options)) {
    report('options', `options must be an array or an async options method, not ${show(prop.options)}`);
    return;
  }
  if (!type) return;
  const itemType = type.endsWith('[]') ? type.slice(0, -2) : type;
  const bad = prop.options.flatMap((option, index) => (isOption(itemType, option) ? [] : [index]));
  if (bad.length === 0) return;
  const which = bad.length === 1 ? `option ${bad[0]}` : `options ${bad.join(', ')}`;
  const item = expectedValue(itemType);
  report('options', `${which} must be ${item} or a { label, value } object with a string label and ${item} value`);
}

function checkTimer(prop: PropShape, report: Report): void {
  if (prop.default === undefined) return;
  const parsed = parseTimerSpec(prop.default, 'default');
  if ('problem' in parsed) report('default', parsed.problem);
}

function checkHttpRequest(prop: PropShape, report: Report): void {
  const value = prop.default;
  if (value === undefined) return;
  // The registry's HTTP actions default to `{ method: "GET" }`: the url is configured when the action is used.
  const ok = isPlainObject(value) && (value.method === undefined || isNonEmptyString(value.method)) && (value.url === undefined || typeof value.url === 'string');
  if (!ok) report('default', `an http_request default must be an object such as { method: "GET", url: "https://…" } (url may be left to configure), not ${show(value)}`);
}

function checkAlert(prop: PropShape, report: Report): void {
  if (typeof prop.alertType !== 'string' || !ALERT_TYPES.includes(prop.alertType)) {
    report('alertType', `alertType must be one of ${ALERT_TYPES.join(', ')}, not ${show(prop.alertType)}`);
  }
  if (typeof prop.content !== 'string') {
    report('content', `content is required on alert props: set it to the text (plain or Markdown) to show, not ${show(prop.content)}`);
  }
}

function checkApp(prop: PropShape, report: Report): void {
  if (!isNonEmptyString(prop.app)) {
    report('app', 'app is required on app props; set it to the app\'s name slug, e.g. app: "github"');
  }
}

/** Checks properties that only some prop types have. */
function checkTypeSpecific(prop: PropShape, type: string, report: Report): void {
  if (type === '$.interface.timer') checkTimer(prop, report);
  else if (type === 'http_request') checkHttpRequest(prop, report);
  else if (type === 'alert') checkAlert(prop, report);
  else if (type === 'app') checkApp(prop, report);
  else checkDefaultValue(prop, type, report);
}

/** Every finding of one prop, with paths `props.<name>.<field>`. */
function propFindings(name: string, prop: PropShape, context: PropContext, into: Findings): void {
  const report: Report = (field, message, level) =>
    (level === 'warning' ? into.warnings : into.errors).push({ path: `props.${name}.${field}`, message: `prop \`${name}\`: ${message}` });
  const brokenDefinition = checkPropDefinition(prop, report);
  const type = checkType(prop, context, brokenDefinition, report);
  checkDefaultPresence(prop, type, report);
  checkOptions(prop, type, report);
  if (!type) return;
  checkSecret(prop, type, report);
  checkRange(prop, type, report);
  checkTypeSpecific(prop, type, report);
}

/** Checks props returned by `additionalProps`: the per-prop rules plus the dynamic-prop type list. */
export function validateDynamicProps(props: Record<string, PropShape>, componentType: 'source' | 'action'): Findings {
  const findings: Findings = { errors: [], warnings: [] };
  for (const [name, prop] of Object.entries(props)) propFindings(name, prop, { componentType, dynamic: true }, findings);
  return findings;
}

/** Reads an optional string field; missing (undefined or null) gives null. */
function optionalString(desc: ComponentDescription, field: 'key' | 'description', problems: ComponentProblem[]): string | null {
  const value = desc[field];
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  problems.push({ path: field, message: `${field} must be a string, not ${show(value)}` });
  return null;
}

function requiredString(desc: ComponentDescription, field: 'name' | 'version', example: string, problems: ComponentProblem[]): string | null {
  const value = desc[field];
  if (value === undefined || value === null) {
    problems.push({ path: field, message: `${field} is required; add ${field}: "${example}" to the component` });
    return null;
  }
  if (typeof value !== 'string') {
    problems.push({ path: field, message: `${field} must be a string, not ${show(value)}` });
    return null;
  }
  if (value === '') problems.push({ path: field, message: `${field} must not be empty; set it, e.g. ${field}: "${example}"` });
  return value;
}

function componentType(desc: ComponentDescription, problems: ComponentProblem[]): ComponentType | null {
  if (desc.type === undefined || desc.type === null) return 'source';
  if (desc.type === 'source' || desc.type === 'action') return desc.type;
  problems.push({ path: 'type', message: `type must be "source" or "action", not ${show(desc.type)}` });
  return null;
}

/** App slugs whose `<slug>-` prefix marks the key as namespaced for the registry. */
function registrySlugs(desc: ComponentDescription, key: string): string[] {
  return Object.values(desc.props)
    .filter((prop) => prop.type === 'app')
    .map((prop) => prop.app)
    .filter(isNonEmptyString)
    .filter((slug) => key.startsWith(`${slug}-`));
}

/** Registry keys follow `<app_name_slug>-<slugified-component-name>`: the app slug as the app spells it (Pipedream's have underscores), then a lower-case slug. */
function checkRegistryKey(key: string, slugs: string[], name: string | null, found: Findings): void {
  if (slugs.some((slug) => SLUG.test(key.slice(slug.length + 1)))) return;
  const slug = slugs[0] as string;
  const suggestion = slugify(key.slice(slug.length + 1)) || slugify(name ?? '') || 'new-event';
  found.warnings.push({
    path: 'key',
    message: `key "${key}" is namespaced for the registry (it starts with app "${slug}"), so after "${slug}-" it should be a lower-case slug of letters, digits and single hyphens, e.g. "${slug}-${suggestion}"`,
  });
}

function checkFreeFormKey(key: string, found: Findings): void {
  if (key === '') found.errors.push({ path: 'key', message: 'key must not be empty; remove key or set a unique one such as "my-source"' });
  else if (/\s/.test(key)) {
    found.errors.push({ path: 'key', message: `key "${key}" must not contain whitespace; use hyphens instead, e.g. "${key.trim().replace(/\s+/g, '-')}"` });
  }
}

/** Key and version rules: free-form, except for registry-namespaced keys (spec 2.4, 9), whose rules are warnings. */
function checkKeyAndVersion(desc: ComponentDescription, key: string | null, version: string | null, name: string | null, found: Findings): void {
  if (key === null) return;
  const slugs = registrySlugs(desc, key);
  if (slugs.length === 0) {
    checkFreeFormKey(key, found);
    return;
  }
  checkRegistryKey(key, slugs, name, found);
  if (version && !SEMVER.test(version)) {
    found.warnings.push({
      path: 'version',
      message: `version "${version}" should be semantic versioning (major.minor.patch, e.g. "0.0.1") because key "${key}" is namespaced for the registry`,
    });
  }
}

function checkHooks(desc: ComponentDescription, type: ComponentType | null, found: Findings): void {
  const all = [...desc.hooks, ...desc.badHooks];
  if (type === 'action' && all.length > 0) {
    found.warnings.push({ path: 'hooks', message: 'hooks belong in sources; an action\'s hooks never run (remove them)' });
    return;
  }
  for (const hook of all) {
    if (!HOOK_NAMES.includes(hook)) {
      found.errors.push({ path: `hooks.${hook}`, message: `hook \`${hook}\` is not a hook; hooks are ${HOOK_NAMES.join(', ')} (move other functions to methods)` });
    } else if (desc.badHooks.includes(hook)) {
      found.errors.push({ path: `hooks.${hook}`, message: `hook \`${hook}\` must be a function, e.g. async ${hook}() { … }` });
    }
  }
}

function checkDedupe(dedupe: unknown, type: ComponentType | null, found: Findings): void {
  if (dedupe === undefined || dedupe === null) return;
  if (type === 'action') {
    // Actions spreading a source's `common` module carry it; Pipedream ignores it there.
    found.warnings.push({ path: 'dedupe', message: 'dedupe applies to sources; an action\'s dedupe is ignored (remove it)' });
    return;
  }
  if (typeof dedupe !== 'string' || !DEDUPE_STRATEGIES.includes(dedupe)) {
    found.errors.push({ path: 'dedupe', message: `dedupe must be "unique", "greatest" or "last", not ${show(dedupe)}` });
  }
}

/** Checks a component description against the spec's rules: every error and warning, without throwing. */
export function checkComponent(desc: ComponentDescription): Findings {
  const found: Findings = { errors: [], warnings: [] };
  const name = requiredString(desc, 'name', 'My Component', found.errors);
  const version = requiredString(desc, 'version', '0.0.1', found.errors);
  const type = componentType(desc, found.errors);
  const key = optionalString(desc, 'key', found.errors);
  optionalString(desc, 'description', found.errors);
  // A source without run() emits the event that triggered it (the registry's schedule sources).
  if (!desc.hasRun && type === 'action') found.errors.push({ path: 'run', message: 'run is required in an action; add an async run({ steps, $ }) method' });
  checkKeyAndVersion(desc, key, version, name, found);
  checkHooks(desc, type, found);
  checkDedupe(desc.dedupe, type, found);
  for (const [propName, prop] of Object.entries(desc.props)) propFindings(propName, prop, { componentType: type, dynamic: false }, found);
  return found;
}

/** Checks a component description; throws one ComponentError listing every error (with the warnings), else returns it with its warnings. */
export function validateComponent(desc: ComponentDescription): ValidComponent {
  const found = checkComponent(desc);
  const name = desc.name;
  const version = desc.version;
  const type = desc.type === undefined || desc.type === null ? 'source' : desc.type;
  if (found.errors.length > 0 || typeof name !== 'string' || typeof version !== 'string' || (type !== 'source' && type !== 'action')) {
    throw new ComponentError(found.errors, found.warnings);
  }
  const configurableProps: ConfigurableProp[] = Object.entries(desc.props).map(([propName, shape]) => ({ name: propName, ...shape }));
  const dedupe = (type === 'source' ? (desc.dedupe ?? null) : null) as ValidComponent['dedupe'];
  return {
    name,
    key: typeof desc.key === 'string' ? desc.key : null,
    version,
    type,
    description: typeof desc.description === 'string' ? desc.description : null,
    dedupe,
    configurable_props: configurableProps,
    warnings: found.warnings,
  };
}
