// Props returned by a component's `additionalProps`: computed in its sandbox, checked
// like static props plus the dynamic-type allow-list, and merged into the prop set.

import { validateDynamicProps } from '../../components/validate';
import type { ConfigurableProp } from '../../contract/component-shape';
import type { AdditionalPropsResult } from '../../contract/host-protocol';
import type { OutgoingCall } from '../../contract/network-api';
import { ComponentError, ConfigurationRejected } from '../../lib/error-kinds';
import type { Sandbox } from '../../sandbox/sandbox';
import type { ComponentRecord, SourceRecord } from '../../store/metadata';

/**
 * Runs `additionalProps` in a configured sandbox; returns the props it added (null when the
 * component has no `additionalProps`); `onCalls` receives the outgoing HTTP calls it made. A `ConfigurationError` becomes ConfigurationRejected;
 * another throw or an invalid prop, a ComponentError naming it.
 */
export async function additionalPropsOf(sandbox: Sandbox, type: ComponentRecord['type'], onCalls?: (calls: OutgoingCall[]) => void): Promise<ConfigurableProp[] | null> {
  const result = await sandbox.invoke({ kind: 'additionalProps' });
  onCalls?.(result.calls);
  if (result.error) {
    if (result.error.name === 'ConfigurationError') throw new ConfigurationRejected(result.error.message);
    throw new ComponentError([{ path: 'additionalProps', message: `additionalProps() threw: ${result.error.message}` }]);
  }
  const { props } = result.value as AdditionalPropsResult;
  if (props === null) return null;
  // Warnings of dynamic props (a type outside the documented prop types, say) do not stop them: they work.
  const { errors } = validateDynamicProps(props, type);
  if (errors.length > 0) throw new ComponentError(errors.map((p) => ({ ...p, path: `additionalProps.${p.path}` })));
  return Object.entries(props).map(([name, shape]) => ({ name, ...shape }));
}

/** Static props with dynamic ones merged in: a dynamic prop replaces a static one of its name, new ones follow. */
export function mergeProps(base: readonly ConfigurableProp[], dynamic: readonly ConfigurableProp[]): ConfigurableProp[] {
  const byName = new Map(dynamic.map((p) => [p.name, p]));
  const merged = base.map((p) => byName.get(p.name) ?? p);
  const names = new Set(base.map((p) => p.name));
  return [...merged, ...dynamic.filter((p) => !names.has(p.name))];
}

/** The full prop set of a deployed source: its component's props and the dynamic ones it was deployed with. */
export function sourceProps(source: SourceRecord, component: ComponentRecord | undefined): ConfigurableProp[] {
  return mergeProps(component?.configurable_props ?? [], source.dynamic_props ?? []);
}
