import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new Standard Webhooks signing secret: `whsec_` and 24 random bytes in base64. */
export function newSigningSecret(): string {
  return PREFIX + randomBytes(24).toString('base64');
}

/** The `webhook-signature` value for one message: `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`. */
export function signMessage(secret: string, messageId: string, timestampSec: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${messageId}.${timestampSec}.${body}`).digest('base64');
  return `v1,${mac}`;
}
