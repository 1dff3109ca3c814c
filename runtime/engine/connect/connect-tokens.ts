// Access tokens (`POST /v1/oauth/token`) and Connect tokens (`POST …/tokens`) are signed, not
// stored: what a token allows is inside it, under an HMAC with a key kept sealed in the metadata.
// They survive a restart of the service, and nothing grows as a client asks for new ones.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { newToken } from '../../lib/ids';
import type { ConnectOwner } from '../../store/connect-records';

/** What an access token (OAuth client credentials) carries: the whole instance, as a workspace's token does. */
export interface AccessClaims {
  kind: 'access';
  exp: number;
}

/** What a Connect token carries: one external user of one project and environment. */
export interface ConnectClaims extends ConnectOwner {
  kind: 'connect';
  exp: number;
  /** Browser origins that may use it (CORS); empty: none but Spout's own pages. */
  allowed_origins: string[];
  success_redirect_uri: string | null;
  error_redirect_uri: string | null;
  /** Where CONNECTION_SUCCESS is posted once its Connect Link made an account. */
  webhook_uri: string | null;
  /** Set by tokens.create `app_id`: the Connect Link page offers only that app. */
  app: string | null;
}

export type TokenClaims = AccessClaims | ConnectClaims;

const owner = { project_id: z.string(), environment: z.enum(['development', 'production']), external_user_id: z.string() };
const claimsSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('access'), exp: z.number() }),
  z.object({
    kind: z.literal('connect'),
    exp: z.number(),
    ...owner,
    allowed_origins: z.array(z.string()),
    success_redirect_uri: z.string().nullable(),
    error_redirect_uri: z.string().nullable(),
    webhook_uri: z.string().nullable(),
    app: z.string().nullable(),
  }),
]);

/** Prefix of each kind, so a token says what it is in logs and error messages. */
const PREFIX = { access: 'pdat_', connect: 'ctok_' } as const;

/** Signs and checks tokens with one key. */
export class TokenSigner {
  constructor(private readonly key: Buffer) {}

  /** A token for these claims. */
  sign(claims: TokenClaims): string {
    // The nonce makes every token unique, even two asked for in the same second.
    const body = Buffer.from(JSON.stringify({ ...claims, n: newToken(9) })).toString('base64url');
    return `${PREFIX[claims.kind]}${body}.${this.mac(body)}`;
  }

  /** The claims of a token signed with this key and not expired; null for anything else. */
  verify(token: string, nowSeconds = Math.floor(Date.now() / 1000)): TokenClaims | null {
    const kind = token.startsWith(PREFIX.access) ? 'access' : token.startsWith(PREFIX.connect) ? 'connect' : null;
    if (!kind) return null;
    const [body, mac] = token.slice(PREFIX[kind].length).split('.');
    if (!body || !mac) return null;
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    const claims = claimsSchema.safeParse(parsed);
    if (!claims.success || claims.data.kind !== kind || claims.data.exp <= nowSeconds) return null;
    return claims.data;
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(`spout-connect:${body}`).digest('base64url');
  }
}
