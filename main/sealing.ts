// Electron's safeStorage as Spout uses it: the OS keychain seals the remote instance key of the
// desktop profile and the data dir's secret-encryption key. Electron's own module is passed in,
// so node:test can run this with a stand-in (test/main/).
import type { KeyWrapper } from '../runtime/index';

/** The part of Electron's `safeStorage` Spout uses. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(sealed: Buffer): string;
  /** Linux only: which keychain backs it (`basic_text` is a fixed password, not a keychain). */
  getSelectedStorageBackend?(): string;
}

/**
 * Whether safeStorage really seals: available, and on Linux not the `basic_text` fallback, whose
 * key is a constant in Electron's source (a value sealed with it is as good as clear text).
 */
export function sealingAvailable(storage: SafeStorageLike, platform: string = process.platform): boolean {
  if (!storage.isEncryptionAvailable()) return false;
  return !(platform === 'linux' && storage.getSelectedStorageBackend?.() === 'basic_text');
}

/** The data dir key sealed by the OS keychain (`DATA_DIR/secret.key.sealed`); undefined where it cannot seal. */
export function secretKeyWrapper(storage: SafeStorageLike, platform: string = process.platform): KeyWrapper | undefined {
  if (!sealingAvailable(storage, platform)) return undefined;
  return {
    name: "the OS keychain (Electron's safeStorage)",
    wrap: (key) => storage.encryptString(key.toString('base64')).toString('base64'),
    unwrap: (text) => Buffer.from(storage.decryptString(Buffer.from(text.trim(), 'base64')), 'base64'),
  };
}
