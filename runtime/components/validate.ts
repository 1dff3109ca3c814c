// Component definition checks: the component's own fields (name, version, type, key, hooks,
// dedupe); each prop's are props/prop-checks.ts, by kind.

import type { ComponentDescription, ComponentProblem, ConfigurableProp, PropShape, ValidComponent } from '../contract/component-shape';
import { ComponentError } from '../lib/error-kinds';
import { slugify } from '../lib/slug';
import { type Findings, propFindings } from '../props/prop-checks';
import { isNonEmptyString, showValue } from '../props/shared/prop-values';

type ComponentType = 'source' | 'action';

const HOOK_NAMES = ['deploy', 'activate', 'deactivate'];
const DEDUPE_STRATEGIES = ['unique', 'greatest', 'last'];

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const SEMVER_NUMBER = '(0|[1-9]\\d*)';
const SEMVER_IDENT = '(0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)';
const SEMVER = new RegExp(`^${SEMVER_NUMBER}\\.${SEMVER_NUMBER}\\.${SEMVER_NUMBER}` + `(-${SEMVER_IDENT}(\\.${SEMVER_IDENT})*)?(\\+[0-9a-zA-Z-]+(\\.[0-9a-zA-Z-]+)*)?$`);

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
  problems.push({ path: field, message: `${field} must be a string, not ${showValue(value)}` });
  return null;
}

function requiredString(desc: ComponentDescription, field: 'name' | 'version', example: string, problems: ComponentProblem[]): string | null {
  const value = desc[field];
  if (value === undefined || value === null) {
    problems.push({ path: field, message: `${field} is required; add ${field}: "${example}" to the component` });
    return null;
  }
  if (typeof value !== 'string') {
    problems.push({ path: field, message: `${field} must be a string, not ${showValue(value)}` });
    return null;
  }
  if (value === '') problems.push({ path: field, message: `${field} must not be empty; set it, e.g. ${field}: "${example}"` });
  return value;
}

function componentType(desc: ComponentDescription, problems: ComponentProblem[]): ComponentType | null {
  if (desc.type === undefined || desc.type === null) return 'source';
  if (desc.type === 'source' || desc.type === 'action') return desc.type;
  problems.push({ path: 'type', message: `type must be "source" or "action", not ${showValue(desc.type)}` });
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

/** Key and version rules: free-form, except for registry-namespaced keys, whose rules are warnings. */
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
    found.warnings.push({ path: 'hooks', message: "hooks belong in sources; an action's hooks never run (remove them)" });
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
    found.warnings.push({ path: 'dedupe', message: "dedupe applies to sources; an action's dedupe is ignored (remove it)" });
    return;
  }
  if (typeof dedupe !== 'string' || !DEDUPE_STRATEGIES.includes(dedupe)) {
    found.errors.push({ path: 'dedupe', message: `dedupe must be "unique", "greatest" or "last", not ${showValue(dedupe)}` });
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
