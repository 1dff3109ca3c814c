import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// Random bytes are drawn in blocks: ids are made on hot paths (a delivery message per event).
let pool = Buffer.alloc(0);
let poolAt = 0;

function randomByte(): number {
  if (poolAt >= pool.length) {
    pool = randomBytes(4096);
    poolAt = 0;
  }
  return pool[poolAt++] as number;
}

/** A random resource id such as `dc_Xy12…`: prefix, underscore, base62 characters. */
export function newId(prefix: string, length = 14): string {
  let out = '';
  while (out.length < length) {
    // 248 is the largest multiple of 62 below 256: rejecting bytes above it keeps every character equally likely.
    const byte = randomByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return `${prefix}_${out}`;
}

/** A random token of `bytes` bytes, URL-safe base64. */
export function newToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
