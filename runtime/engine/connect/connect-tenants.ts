// External users are tenants: each Connect account and deployed trigger belongs to one external
// user of one project and environment, and nothing of one user is visible to, or usable in the
// runs of, another.
import { newId } from '../../lib/ids';
import type { ConnectOwner, ExternalUserRecord } from '../../store/connect-records';
import type { AccountRecord, Metadata, SourceRecord } from '../../store/metadata';
import type { SecretBox } from '../../store/secrets';

/** True when both name the same external user of the same project and environment. */
export function sameOwner(a: ConnectOwner | undefined, b: ConnectOwner): boolean {
  return !!a && a.project_id === b.project_id && a.environment === b.environment && a.external_user_id === b.external_user_id;
}

/** The owner fields alone (a token's claims carry more). */
export function ownerOf(o: ConnectOwner): ConnectOwner {
  return { project_id: o.project_id, environment: o.environment, external_user_id: o.external_user_id };
}

/** An account id a configured value names (`{authProvisionId}`), if it names one. */
function accountIdIn(value: unknown): string | undefined {
  const id = value && typeof value === 'object' ? (value as { authProvisionId?: unknown }).authProvisionId : undefined;
  return typeof id === 'string' ? id : undefined;
}

const now = () => Math.floor(Date.now() / 1000);

/** External users and what they own. */
export class ConnectTenants {
  constructor(
    private readonly metadata: Metadata,
    private readonly secrets: SecretBox,
  ) {}

  private get data() {
    return this.metadata.data;
  }

  /** The user's record, made on first use (the caller saves the metadata). */
  user(owner: ConnectOwner): ExternalUserRecord {
    let user = this.data.connect.users.find((u) => sameOwner(u, owner));
    if (!user) {
      const t = now();
      user = { id: newId('exu', 10), ...ownerOf(owner), created_at: t, updated_at: t };
      this.data.connect.users.push(user);
    }
    return user;
  }

  /** The user's record, made and saved on first use. */
  async ensureUser(owner: ConnectOwner): Promise<ExternalUserRecord> {
    const known = this.data.connect.users.length;
    const user = this.user(owner);
    if (this.data.connect.users.length !== known) await this.metadata.write();
    return user;
  }

  /** The users of a project and environment, oldest first. */
  users(projectId: string, environment: ConnectOwner['environment']): ExternalUserRecord[] {
    return this.data.connect.users.filter((u) => u.project_id === projectId && u.environment === environment);
  }

  /** The user's accounts (of one app if given), oldest first. */
  accounts(owner: ConnectOwner, app?: string): AccountRecord[] {
    return this.data.accounts.filter((a) => sameOwner(a.connect, owner) && (!app || a.app === app));
  }

  /** Every Connect account of a project and environment (the project's own view, whoever owns them). */
  projectAccounts(projectId: string, environment: ConnectOwner['environment'], app?: string): AccountRecord[] {
    return this.data.accounts.filter((a) => a.connect?.project_id === projectId && a.connect.environment === environment && (!app || a.app === app));
  }

  /** One of the user's accounts; undefined when it is another's or does not exist. */
  account(owner: ConnectOwner, id: string): AccountRecord | undefined {
    return this.accounts(owner).find((a) => a.id === id);
  }

  /** A Connect account of the project, whoever owns it. */
  projectAccount(projectId: string, environment: ConnectOwner['environment'], id: string): AccountRecord | undefined {
    return this.projectAccounts(projectId, environment).find((a) => a.id === id);
  }

  /** Connects an account for the user: its credentials sealed. */
  async createAccount(owner: ConnectOwner, app: string, name: string | undefined, credentials: Record<string, unknown>): Promise<AccountRecord> {
    this.user(owner).updated_at = now();
    const record: AccountRecord = { id: newId('apn', 10), app, name: name ?? app, sealed_credentials: this.secrets.seal(JSON.stringify(credentials)), connect: ownerOf(owner), created_at: now() };
    this.data.accounts.push(record);
    await this.metadata.write();
    return record;
  }

  /** Replaces an account's credentials, and its name if given (a reconnect). */
  async reconnectAccount(account: AccountRecord, name: string | undefined, credentials: Record<string, unknown>): Promise<void> {
    if (account.connect) this.user(account.connect).updated_at = now();
    account.sealed_credentials = this.secrets.seal(JSON.stringify(credentials));
    if (name !== undefined) account.name = name;
    await this.metadata.write();
  }

  /** An account's credentials in clear. */
  credentials(account: AccountRecord): Record<string, unknown> {
    return JSON.parse(this.secrets.open(account.sealed_credentials)) as Record<string, unknown>;
  }

  /** Deployed triggers that use the account (it cannot go while they do). */
  usersOf(account: AccountRecord): SourceRecord[] {
    return this.data.sources.filter((s) => Object.values(s.configured_props).some((v) => accountIdIn(v) === account.id));
  }

  /** Removes accounts (none may be in use: see usersOf). */
  async removeAccounts(ids: readonly string[]): Promise<void> {
    const gone = new Set(ids);
    this.data.accounts = this.data.accounts.filter((a) => !gone.has(a.id));
    await this.metadata.write();
  }

  /** The user's deployed triggers, oldest first. */
  triggers(owner: ConnectOwner): SourceRecord[] {
    return this.data.sources.filter((s) => sameOwner(s.connect, owner));
  }

  /** Every deployed trigger of a project and environment. */
  projectTriggers(projectId: string, environment: ConnectOwner['environment']): SourceRecord[] {
    return this.data.sources.filter((s) => s.connect?.project_id === projectId && s.connect.environment === environment);
  }

  /**
   * Problems with the accounts configured values name: every `{authProvisionId}` must be one of
   * the user's own accounts (an id of another user's reads as unknown, so ids cannot be probed).
   */
  accountProblems(owner: ConnectOwner, configured: Record<string, unknown>): Array<{ path: string; message: string }> {
    const problems: Array<{ path: string; message: string }> = [];
    for (const [name, value] of Object.entries(configured)) {
      const id = accountIdIn(value);
      if (id !== undefined && !this.account(owner, id)) {
        problems.push({ path: `configured_props.${name}`, message: `prop \`${name}\`: external user "${owner.external_user_id}" has no account ${id}; connect one for this user (tokens.create gives a Connect Link, or accounts.create)` });
      }
    }
    return problems;
  }

  /** Forgets the user and their accounts (their triggers must be removed first). */
  async removeUser(owner: ConnectOwner): Promise<void> {
    this.data.accounts = this.data.accounts.filter((a) => !sameOwner(a.connect, owner));
    this.data.connect.users = this.data.connect.users.filter((u) => !sameOwner(u, owner));
    await this.metadata.write();
  }
}
