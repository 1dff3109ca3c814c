// One-time UI sign-in tokens: what the UI link (`/?token=…`) carries instead of the API key, so a
// link captured from a terminal or a CI log opens nothing once used, once old, or after a restart.
import { createHash } from 'node:crypto';
import { newToken } from '../../lib/ids';

/** How long an unused sign-in token stays valid, in ms (docs/security.md). */
export const SIGN_IN_TOKEN_TTL_MS = 60 * 60 * 1000;

/** Unused tokens kept at once; issuing one more drops the oldest. */
const MAX_OUTSTANDING = 100;

/** Tokens are kept by their hash: a lookup's time says nothing about a token's text. */
function digest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** The unused sign-in tokens of this run of the service, in memory only. */
export class SignInTokens {
  /** Hash → expiry (epoch ms), oldest first. */
  private readonly unused = new Map<string, number>();

  /** A new token, valid once within SIGN_IN_TOKEN_TTL_MS. */
  issue(): { token: string; expiresAt: number } {
    if (this.unused.size >= MAX_OUTSTANDING) this.unused.delete(this.unused.keys().next().value as string);
    const token = `spt_${newToken(24)}`;
    const expiresAt = Date.now() + SIGN_IN_TOKEN_TTL_MS;
    this.unused.set(digest(token), expiresAt);
    return { token, expiresAt };
  }

  /** Whether `token` is an unused, unexpired token; it is spent either way. */
  spend(token: string): boolean {
    const key = digest(token);
    const expiresAt = this.unused.get(key);
    this.unused.delete(key);
    return expiresAt !== undefined && expiresAt > Date.now();
  }

  /** Voids every unused token (the API key was rotated). */
  clear(): void {
    this.unused.clear();
  }
}

/** The UI link at `origin` that signs in with `token`. */
export function signInLink(origin: string, token: string): string {
  return `${origin}/?token=${encodeURIComponent(token)}`;
}
