import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new Standard Webhooks signing secret: `whsec_` and 24 random bytes in base64. */
export function newSigningSecret(): string {
  return PREFIX + randomBytes(24).toString('base64');
}

/** The `webhook-signature` value for one message: `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`. */
export function signMessage(secret: string, messageId: string, timestampSec: number, body: string): string {
  const mac = createHmac('sha256', signingKey(secret)).update(`${messageId}.${timestampSec}.${body}`).digest('base64');
  return `v1,${mac}`;
}

// Decoded keys by secret: every delivery signs, and decoding the secret each time is wasted work.
const keys = new Map<string, KeyObject>();

function signingKey(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size > 1000) keys.clear();
    key = createSecretKey(Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64'));
    keys.set(secret, key);
  }
  return key;
}
