import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random resource id such as `dc_Xy12…`: prefix, underscore, base62 characters. */
export function newId(prefix: string, length = 14): string {
  // 248 is the largest multiple of 62 below 256: rejecting bytes above it keeps every character equally likely.
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return `${prefix}_${out}`;
}

/** A random token of `bytes` bytes, URL-safe base64. */
export function newToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
