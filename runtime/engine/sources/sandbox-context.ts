import type { ConfigurableProp } from '../../contract/component-shape';
import type { SandboxContext } from '../../contract/host-protocol';
import type { NetworkMode } from '../../contract/network-api';
import { dirFolders } from '../../props/dir/dir-folders';
import type { AccountRecord } from '../../store/metadata';
import type { SecretBox } from '../../store/secrets';

/** What `this` is built from, before connected accounts are opened. */
export interface ContextInput {
  sourceId: string;
  props: readonly ConfigurableProp[];
  /** Configured values in clear (secrets opened). */
  values: Record<string, unknown>;
  /** Endpoint URL of each HTTP interface prop, by prop name. */
  endpoints: Record<string, string>;
  dynamicProps: boolean;
  /** How its outgoing HTTP calls are served (default live). */
  network?: NetworkMode;
  /** The data dir: `dir` props get their folders under it. */
  dataDir: string;
}

/** The sandbox context for configured values: each app prop's connected account opened into its `$auth`. */
export function sandboxContext(input: ContextInput, accounts: readonly AccountRecord[], secrets: SecretBox): SandboxContext {
  const auth: SandboxContext['auth'] = {};
  const dataStores: string[] = [];
  for (const prop of input.props) {
    const store = (input.values[prop.name] as { dataStore?: unknown } | undefined)?.dataStore;
    if (prop.type === 'data_store' && typeof store === 'string') dataStores.push(store);
    if (prop.type !== 'app') continue;
    const id = (input.values[prop.name] as { authProvisionId?: unknown } | undefined)?.authProvisionId;
    const account = typeof id === 'string' ? accounts.find((a) => a.id === id) : undefined;
    if (account) auth[prop.name] = JSON.parse(secrets.open(account.sealed_credentials)) as Record<string, unknown>;
  }
  const dirs = dirFolders(input.props, input.values, input.sourceId, input.dataDir);
  return { sourceId: input.sourceId, props: input.values, endpoints: input.endpoints, auth, dynamicProps: input.dynamicProps, dataStores, dirs, network: input.network ?? 'live' };
}
