// The local Pipedream Connect API's state (docs/connect.md): projects and tokens, tenants, apps.
import type { ComponentRegistry } from '../../components/registry';
import type { Metadata } from '../../store/metadata';
import type { SecretBox } from '../../store/secrets';
import { ConnectCatalog } from './connect-catalog';
import { ConnectProjects } from './connect-projects';
import { ConnectTenants } from './connect-tenants';

export interface ConnectDeps {
  metadata: Metadata;
  secrets: SecretBox;
  registry: ComponentRegistry;
  /** Lifetime of OAuth access tokens in seconds (default an hour). */
  accessTokenSeconds?: number;
}

/** What the Connect routes reach of the runtime beyond the shared engine. */
export class ConnectService {
  readonly projects: ConnectProjects;
  readonly tenants: ConnectTenants;
  readonly catalog: ConnectCatalog;

  constructor(deps: ConnectDeps) {
    this.projects = new ConnectProjects(deps.metadata, deps.secrets, deps.accessTokenSeconds);
    this.tenants = new ConnectTenants(deps.metadata, deps.secrets);
    this.catalog = new ConnectCatalog(deps.registry);
  }
}
