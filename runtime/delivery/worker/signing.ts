import { hash, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';
/** SHA-256's block size: an HMAC key is padded (or first hashed) to it. */
const BLOCK = 64;

/** A new Standard Webhooks signing secret: `whsec_` and 24 random bytes in base64. */
export function newSigningSecret(): string {
  return PREFIX + randomBytes(24).toString('base64');
}

/**
 * The `webhook-signature` value for one message: `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`.
 * HMAC as RFC 2104 defines it, SHA-256(outer pad ‖ SHA-256(inner pad ‖ message)), with
 * `crypto.hash`: it keeps the digest it looked up, where each `createHmac` sets OpenSSL up anew,
 * which cost about 5 µs a delivery under load (bench/delivery-thread.ts, `sign` mode) for 2 of
 * hashing. The signing tests check it against the standardwebhooks package and `createHmac`.
 */
export function signMessage(secret: string, messageId: string, timestampSec: number, body: string): string {
  const key = signingKey(secret);
  const text = `${messageId}.${timestampSec}.${body}`;
  // At most 3 bytes a UTF-16 unit: measured only when it might not fit, and grown at least twofold.
  if (scratch.length < BLOCK + text.length * 3) {
    const bytes = BLOCK + Buffer.byteLength(text);
    if (scratch.length < bytes) scratch = Buffer.allocUnsafe(Math.max(bytes, 2 * scratch.length));
  }
  key.inner.copy(scratch, 0);
  const written = scratch.write(text, BLOCK, 'utf8');
  hash('sha256', scratch.subarray(0, BLOCK + written), 'buffer').copy(key.outer, BLOCK);
  return `v1,${hash('sha256', key.outer, 'base64')}`;
}

/** Where a message is hashed after the inner pad; grown for a larger one. */
let scratch = Buffer.allocUnsafe(16 * 1024);

/** A key's inner pad, and its outer pad with room for the inner digest after it. */
interface Pads {
  inner: Buffer;
  outer: Buffer;
}

// Pads by secret: every delivery signs, and decoding the secret each time is wasted work.
const keys = new Map<string, Pads>();

function signingKey(secret: string): Pads {
  let pads = keys.get(secret);
  if (!pads) {
    if (keys.size > 1000) keys.clear();
    let key: Buffer = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
    if (key.length > BLOCK) key = hash('sha256', key, 'buffer') as unknown as Buffer;
    const inner = Buffer.alloc(BLOCK);
    const outer = Buffer.alloc(BLOCK + 32);
    // The key is zero-padded to a block.
    for (let i = 0; i < BLOCK; i++) {
      inner[i] = (key[i] ?? 0) ^ 0x36;
      outer[i] = (key[i] ?? 0) ^ 0x5c;
    }
    pads = { inner, outer };
    keys.set(secret, pads);
  }
  return pads;
}
