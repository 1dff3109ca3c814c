import type { ComponentProblem } from '../contract/component-shape';
import type { ConfigurableProp } from '../contract/component-shape';
import { appPropProblem, noAccount, type AccountLookup } from './app/app-prop';
import { matchesType, staticValueProblem } from './prop-values';
import { parseTimerSpec } from './timer/timer-spec';
import { configuredDir } from './dir/dir-folders';

/** Prop types whose value the user enters at deploy time. */
const USER_INPUT = new Set(['boolean', 'boolean[]', 'integer', 'integer[]', 'string', 'string[]', 'object', 'any']);

function typeProblem(prop: ConfigurableProp, value: unknown): string | null {
  if (matchesType(prop.type, value)) return boundsProblem(prop, value);
  if (prop.type.endsWith('[]')) {
    const item = prop.type.slice(0, -2);
    if (!Array.isArray(value)) return `must be an array of ${item}s`;
    const bad = value.findIndex((v) => !matchesType(item, v));
    return `item ${bad} must be ${item === 'integer' ? 'an integer' : `a ${item}`}`;
  }
  return `must be ${prop.type === 'integer' || prop.type === 'object' ? `an ${prop.type}` : `a ${prop.type}`}, not ${JSON.stringify(value)}`;
}

function boundsProblem(prop: ConfigurableProp, value: unknown): string | null {
  if (prop.type === 'integer[]' && Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const problem = boundsProblem({ ...prop, type: 'integer' }, item);
      if (problem) return `item ${i} ${problem}`;
    }
    return null;
  }
  if (prop.type !== 'integer' || typeof value !== 'number') return null;
  if (prop.min !== undefined && value < prop.min) return `must be at least ${prop.min}, not ${value}`;
  if (prop.max !== undefined && value > prop.max) return `must be at most ${prop.max}, not ${value}`;
  return null;
}

/**
 * Checks configured values against the component's props and returns the values to keep (user
 * inputs and app accounts); every problem is returned, each naming the prop and what to do.
 */
export function checkConfiguredProps(
  props: readonly ConfigurableProp[],
  configured: Record<string, unknown>,
  account: AccountLookup = () => undefined,
  dataStoreExists: (id: string) => boolean = () => false,
): { values: Record<string, unknown>; problems: ComponentProblem[] } {
  const problems: ComponentProblem[] = [];
  const values: Record<string, unknown> = {};
  const byName = new Map(props.map((p) => [p.name, p]));
  for (const name of Object.keys(configured)) {
    if (!byName.has(name)) problems.push({ path: `configured_props.${name}`, message: `the component has no prop \`${name}\`; remove it` });
  }
  for (const prop of props) {
    if (prop.type === 'app') {
      const problem = appPropProblem(prop, configured[prop.name], account);
      if (problem) problems.push({ path: `configured_props.${prop.name}`, message: problem });
      else if (!noAccount(configured[prop.name])) values[prop.name] = { authProvisionId: (configured[prop.name] as { authProvisionId: string }).authProvisionId };
      continue;
    }
    if (prop.type === 'data_store') {
      const value = configured[prop.name];
      if (value === undefined || value === null) {
        if (!prop.optional) problems.push({ path: `configured_props.${prop.name}`, message: `prop \`${prop.name}\` is required; give it {"dataStore": "ds_…"} (POST /v1/data_stores creates a store)` });
        continue;
      }
      const id = typeof value === 'object' ? (value as { dataStore?: unknown }).dataStore : undefined;
      if (typeof id !== 'string') problems.push({ path: `configured_props.${prop.name}`, message: `prop \`${prop.name}\` takes {"dataStore": "ds_…"}, the id of a data store, not ${JSON.stringify(value)}` });
      else if (!dataStoreExists(id)) problems.push({ path: `configured_props.${prop.name}`, message: `prop \`${prop.name}\`: no data store ${id}; create one with POST /v1/data_stores` });
      else values[prop.name] = { dataStore: id };
      continue;
    }
    if (prop.type === 'http_request') {
      // The request itself (url, method, headers, params, body, auth), replacing the prop's default.
      const value = configured[prop.name];
      if (value === undefined || value === null) continue;
      const url = typeof value === 'object' ? (value as { url?: unknown }).url : undefined;
      if (typeof url !== 'string' || !URL.canParse(url)) problems.push({ path: `configured_props.${prop.name}`, message: `prop \`${prop.name}\` takes a request such as {"method": "GET", "url": "https://…"} with an absolute url` });
      else values[prop.name] = value;
      continue;
    }
    if (prop.type === '$.interface.timer') {
      // A timer's schedule may be configured, replacing the prop's default.
      const value = configured[prop.name];
      if (value === undefined || value === null) {
        if (prop.default === undefined) {
          problems.push({ path: `configured_props.${prop.name}`, message: `prop \`${prop.name}\` has no default schedule; configure one, e.g. {"intervalSeconds": 900} or {"cron": "0 * * * *"}` });
        }
        continue;
      }
      const parsed = parseTimerSpec(value, `prop \`${prop.name}\``);
      if ('problem' in parsed) problems.push({ path: `configured_props.${prop.name}`, message: parsed.problem });
      else values[prop.name] = parsed.spec;
      continue;
    }
    if (prop.type === 'dir') {
      // A folder of the user's own instead of the source's (which is the default).
      const value = configured[prop.name];
      if (value === undefined || value === null) continue;
      const folder = configuredDir(value);
      if (folder === null) problems.push({ path: `configured_props.${prop.name}`, message: `prop \`${prop.name}\` takes an absolute folder path (or leave it out for the source's own folder), not ${JSON.stringify(value)}` });
      else values[prop.name] = folder;
      continue;
    }
    // App-specific types (`$.discord.channel`) take the app's ids as given: not checked offline.
    const appSpecific = prop.type.startsWith('$.') && !prop.type.startsWith('$.interface.') && !prop.type.startsWith('$.service.');
    if (!USER_INPUT.has(prop.type) && !appSpecific) continue;
    const value = configured[prop.name];
    if (value === undefined || value === null) {
      if (!prop.optional && prop.default === undefined) {
        problems.push({ path: `configured_props.${prop.name}`, message: `prop \`${prop.name}\` is required; give it a value in configured_props` });
      }
      continue;
    }
    const problem = (appSpecific ? null : typeProblem(prop, value)) ?? staticValueProblem(value);
    if (problem) problems.push({ path: `configured_props.${prop.name}`, message: `prop \`${prop.name}\` ${problem}` });
    else values[prop.name] = value;
  }
  return { values, problems };
}
