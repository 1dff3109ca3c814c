// A source's prop configuration: its prop set (dynamic props included), the check of configured
// values and granted folders, its endpoints, and the `this` its sandbox is configured with.

import type { ConfigurableProp } from '../../contract/component-shape';
import type { SandboxContext } from '../../contract/host-protocol';
import type { NetworkMode } from '../../contract/network-api';
import { ComponentError } from '../../lib/error-kinds';
import { newId } from '../../lib/ids';
import { checkConfiguredProps } from '../../props/configured-props';
import { openSecrets, sealSecrets } from '../../props/secret/secret-values';
import type { Sandbox } from '../../sandbox/sandbox';
import type { DataStores } from '../../store/data-stores';
import type { ComponentRecord, Metadata, SourceRecord } from '../../store/metadata';
import type { SecretBox } from '../../store/secrets';
import { additionalPropsOf, mergeProps, sourceProps } from './dynamic-props';
import { sandboxContext } from './sandbox-context';
import type { SourceCalls } from './source-calls';
import { checkPermissions, type SourcePermissions } from './source-grants';
import type { LiveSource } from './source-hosts';

export interface SourcePropsDeps {
  /** Its connected accounts, opened into `$auth`. */
  metadata: Metadata;
  secrets: SecretBox;
  /** Whether a `data_store` prop's store exists. */
  dataStores: DataStores;
  /** The data dir, which no source may be granted (its `dir` props' folders under it excepted). */
  dataDir: string;
  endpointUrl: (endpointId: string) => string;
  /** The run timeout of a source that sets none, now (the settings change it). */
  runTimeoutMs: () => number;
  /** Told each source's credentials, to mask its calls. */
  calls: SourceCalls;
}

/** Configured values ready to store, and the required props an inactive source lacks. */
export interface CheckedValues {
  values: Record<string, unknown>;
  missing: string[];
}

/** Prop sets, value checks and sandbox configuration of deployed sources. */
export class SourceProps {
  constructor(private readonly deps: SourcePropsDeps) {}

  /** A source's configured values in clear, as its code sees them. */
  configuredValues(source: SourceRecord, component: ComponentRecord | undefined): Record<string, unknown> {
    return openSecrets(sourceProps(source, component), source.configured_props, this.deps.secrets);
  }

  /**
   * The prop set for configured values: the component's props plus what `additionalProps` returns
   * when run with `this` holding the values given for the component's own props.
   */
  async propSet(sourceId: string, live: LiveSource, configured: Record<string, unknown>, network: NetworkMode = 'live'): Promise<{ props: ConfigurableProp[]; dynamic: ConfigurableProp[] | null }> {
    const { sandbox, component } = live;
    const own = component.configurable_props;
    // A module without additionalProps() has its own props only: no call to its host.
    if (live.declares?.hasAdditionalProps === false) return { props: own, dynamic: null };
    // Problems are reported by the full check once the prop set is known.
    const { values } = checkConfiguredProps(own, configured, this.accountLookup, this.storeExists);
    // additionalProps runs in the source's network mode: a replay makes no live call, a recording keeps its calls.
    const context = sandboxContext({ sourceId, props: own, values, endpoints: {}, dynamicProps: false, network, dataDir: this.deps.dataDir }, this.deps.metadata.data.accounts, this.deps.secrets);
    sandbox.configure(context);
    const secretValues = own.filter((p) => p.secret).map((p) => values[p.name]);
    const dynamic = await additionalPropsOf(sandbox, component.type, (calls) => this.deps.calls.recordConfiguring(sourceId, context, secretValues, calls));
    return { props: dynamic ? mergeProps(own, dynamic) : own, dynamic };
  }

  /**
   * Checks configured values and returns them ready to store (secrets sealed, kept from `previous`
   * where not given again). With `allowMissing` (an inactive source), required props without a
   * value are listed in `missing` instead of failing the call.
   */
  check(props: readonly ConfigurableProp[], configured: Record<string, unknown>, previous: Record<string, unknown>, allowMissing = false): CheckedValues {
    const { values, problems } = checkConfiguredProps(props, configured, this.accountLookup, this.storeExists);
    const absent = (path: string) => configured[path.slice('configured_props.'.length)] == null;
    const missing = allowMissing ? problems.filter((p) => absent(p.path)).map((p) => p.path.slice('configured_props.'.length)) : [];
    const refused = allowMissing ? problems.filter((p) => !absent(p.path)) : problems;
    if (refused.length > 0) throw new ComponentError(refused);
    return { values: sealSecrets(props, values, this.deps.secrets, previous), missing };
  }

  /** Checks folders granted to a source; throws a ComponentError naming each refused one. */
  permissions(given: SourcePermissions): SourcePermissions {
    const { permissions, problems } = checkPermissions(given, this.deps.dataDir);
    if (problems.length > 0) throw new ComponentError(problems);
    return permissions;
  }

  /** Endpoint ids of the HTTP interface props, keeping those a previous version had. */
  endpointsFor(props: readonly ConfigurableProp[], previous: Record<string, string>): Record<string, string> {
    const endpoints: Record<string, string> = {};
    for (const prop of props) {
      if (prop.type === '$.interface.http') endpoints[prop.name] = previous[prop.name] ?? newId('en', 16);
    }
    return endpoints;
  }

  /** A source's run timeout: its own, else the service's now. */
  runTimeout(source: SourceRecord): number {
    return source.timeout_seconds ? source.timeout_seconds * 1000 : this.deps.runTimeoutMs();
  }

  /** Configures a source's sandbox: what `this` holds, its run timeout, and the credentials its calls must not show. */
  configure(sandbox: Sandbox, source: SourceRecord, component: ComponentRecord): void {
    sandbox.setLabel(`source ${source.id} (${source.name})`);
    sandbox.setRunTimeout(this.runTimeout(source));
    const props = sourceProps(source, component);
    const context = this.context(source, props);
    sandbox.configure(context);
    const secretValues = props.filter((p) => p.secret).map((p) => context.props[p.name]);
    this.deps.calls.configure(source.id, context, secretValues);
  }

  /** What the sandbox exposes as `this`: secrets opened, app props' credentials as `$auth`. */
  private context(source: SourceRecord, props: readonly ConfigurableProp[]): SandboxContext {
    const endpoints: Record<string, string> = {};
    for (const [prop, id] of Object.entries(source.endpoints)) endpoints[prop] = this.deps.endpointUrl(id);
    const values = openSecrets(props, source.configured_props, this.deps.secrets);
    return sandboxContext({ sourceId: source.id, props, values, endpoints, dynamicProps: source.dynamic_props !== undefined, network: source.network_mode, dataDir: this.deps.dataDir }, this.deps.metadata.data.accounts, this.deps.secrets);
  }

  private readonly accountLookup = (id: string) => this.deps.metadata.data.accounts.find((a) => a.id === id);
  private readonly storeExists = (id: string) => this.deps.dataStores.exists(id);
}
