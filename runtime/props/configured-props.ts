// The value checks of configured props (`configured_props`): each prop's kind (prop-kinds.ts)
// decides what it takes and what is kept.
import type { ComponentProblem, ConfigurableProp } from '../contract/component-shape';
import type { AccountLookup } from './app/app-prop';
import { kindOf } from './prop-kinds';
import { plainOf, readLabels } from './shared/labeled-values';

/** Whether a prop keeps its values with their labels (`withLabel: true` on a kind whose values are picked). */
export function keepsLabels(prop: ConfigurableProp): boolean {
  return prop.withLabel === true && kindOf(prop.type)?.labeled === true;
}

/** Configured values as the component reads them, unchecked (for options and additionalProps): withLabel props' labeled, `{"__lv": …}` unwrapped. */
export function readConfigured(props: readonly ConfigurableProp[], configured: Record<string, unknown>): Record<string, unknown> {
  const byName = new Map(props.map((p) => [p.name, p]));
  return Object.fromEntries(
    Object.entries(configured).map(([name, v]) => {
      const prop = byName.get(name);
      return [name, prop ? readLabels(prop, v, keepsLabels(prop)) : v];
    }),
  );
}

/**
 * Checks configured values against the component's props and returns the values to keep (user
 * inputs and app accounts); every problem is returned, each naming the prop and what to do.
 */
export function checkConfiguredProps(props: readonly ConfigurableProp[], configured: Record<string, unknown>, account: AccountLookup = () => undefined, dataStoreExists: (id: string) => boolean = () => false): { values: Record<string, unknown>; problems: ComponentProblem[] } {
  const problems: ComponentProblem[] = [];
  const values: Record<string, unknown> = {};
  const byName = new Map(props.map((p) => [p.name, p]));
  for (const name of Object.keys(configured)) {
    if (!byName.has(name)) problems.push({ path: `configured_props.${name}`, message: `the component has no prop \`${name}\`; remove it` });
  }
  const lookups = { account, dataStoreExists };
  for (const prop of props) {
    const labels = keepsLabels(prop);
    const given = readLabels(prop, configured[prop.name], labels);
    // A hidden prop (as written, or by additionalProps for these values) is not asked for, so not required, as on Pipedream.
    if (prop.hidden === true && (given === undefined || given === null)) continue;
    // A kind without a value check (an endpoint, a db, an alert) takes no configured value.
    const outcome = kindOf(prop.type)?.checkValue?.(prop, labels ? plainOf(given) : given, lookups) ?? null;
    if (outcome === null) continue;
    if ('problem' in outcome) problems.push({ path: `configured_props.${prop.name}`, message: outcome.problem });
    // The value checked is the plain one; a withLabel prop keeps its labels.
    else values[prop.name] = labels ? given : outcome.value;
  }
  return { values, problems };
}
