// Connect projects, the OAuth client that signs in to them, and the tokens both hand out.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { newId, newToken } from '../../lib/ids';
import type { ConnectClientRecord, ConnectOwner, ConnectProjectRecord } from '../../store/connect-records';
import type { Metadata } from '../../store/metadata';
import type { SecretBox } from '../../store/secrets';
import { type AccessClaims, type ConnectClaims, type TokenClaims, TokenSigner } from './connect-tokens';

/** The project every Spout has from the start; the SDK's `projectId` names it. */
export const DEFAULT_PROJECT_ID = 'proj_local';

/** Access tokens live an hour, as Pipedream's do. */
export const ACCESS_TOKEN_SECONDS = 3600;

/** Connect tokens live four hours unless asked for less, as Pipedream's do. */
export const CONNECT_TOKEN_SECONDS = 4 * 3600;

/** What `tokens.create` asks for beyond the owner. */
export type ConnectTokenRequest = Omit<ConnectClaims, 'kind' | 'exp' | keyof ConnectOwner> & { expires_in?: number };

const now = () => Math.floor(Date.now() / 1000);

/** Projects, client credentials and tokens of the local Connect API. */
export class ConnectProjects {
  private signer: TokenSigner | null = null;

  constructor(
    private readonly metadata: Metadata,
    private readonly secrets: SecretBox,
    /** Lifetime of access tokens; tests shorten it to see the SDK refresh. */
    private readonly accessTokenSeconds = ACCESS_TOKEN_SECONDS,
  ) {}

  private get data() {
    return this.metadata.data.connect;
  }

  /** Every project, the default one first (made on first use). */
  list(): ConnectProjectRecord[] {
    if (!this.data.projects.some((p) => p.id === DEFAULT_PROJECT_ID)) {
      const t = now();
      this.data.projects.unshift({ id: DEFAULT_PROJECT_ID, name: 'Local project', app_name: null, support_email: null, created_at: t, updated_at: t });
    }
    return this.data.projects;
  }

  find(id: string): ConnectProjectRecord | undefined {
    return this.list().find((p) => p.id === id);
  }

  /** A new project. */
  async create(input: { name: string; app_name?: string | null; support_email?: string | null; allow_local_targets?: boolean | undefined }): Promise<ConnectProjectRecord> {
    const t = now();
    const project: ConnectProjectRecord = { id: newId('proj', 10), name: input.name, app_name: input.app_name ?? null, support_email: input.support_email ?? null, created_at: t, updated_at: t };
    if (input.allow_local_targets) project.allow_local_targets = true;
    this.list().push(project);
    await this.metadata.write();
    return project;
  }

  /** The OAuth client's id and secret (made on first use); `rotate` replaces them, voiding the old secret. */
  async credentials(rotate = false): Promise<{ client_id: string; client_secret: string }> {
    let client = this.data.clients[0];
    if (!client || rotate) {
      const secret = `pdcs_${newToken(24)}`;
      client = { client_id: newId('pdc', 20), sealed_secret: this.secrets.seal(secret), created_at: now() } satisfies ConnectClientRecord;
      this.data.clients = [client];
      await this.metadata.write();
      return { client_id: client.client_id, client_secret: secret };
    }
    return { client_id: client.client_id, client_secret: this.secrets.open(client.sealed_secret) };
  }

  /** An access token for the client, or null when the id or secret is wrong. */
  async accessToken(clientId: string, clientSecret: string): Promise<{ token: string; expires_in: number } | null> {
    const client = this.data.clients.find((c) => c.client_id === clientId);
    if (!client) return null;
    const a = Buffer.from(this.secrets.open(client.sealed_secret));
    const b = Buffer.from(clientSecret);
    if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
    const claims: AccessClaims = { kind: 'access', exp: now() + this.accessTokenSeconds };
    return { token: (await this.tokens()).sign(claims), expires_in: this.accessTokenSeconds };
  }

  /** A Connect token for one external user. */
  async connectToken(owner: ConnectOwner, request: ConnectTokenRequest): Promise<{ token: string; claims: ConnectClaims }> {
    const { expires_in, ...rest } = request;
    const lifetime = Math.min(expires_in ?? CONNECT_TOKEN_SECONDS, CONNECT_TOKEN_SECONDS);
    const claims: ConnectClaims = { kind: 'connect', exp: now() + lifetime, ...owner, ...rest };
    return { token: (await this.tokens()).sign(claims), claims };
  }

  /** The claims of a valid token; null when it is not one (wrong, tampered with, expired). */
  async verify(token: string): Promise<TokenClaims | null> {
    return (await this.tokens()).verify(token);
  }

  /** The token signer, its key made (and sealed into the metadata) on first use. */
  private async tokens(): Promise<TokenSigner> {
    if (this.signer) return this.signer;
    let sealed = this.data.sealed_token_key;
    if (!sealed) {
      sealed = this.secrets.seal(randomBytes(32).toString('base64'));
      this.data.sealed_token_key = sealed;
      await this.metadata.write();
    }
    this.signer = new TokenSigner(Buffer.from(this.secrets.open(sealed), 'base64'));
    return this.signer;
  }
}
