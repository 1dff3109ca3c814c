import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { keepPrivate } from '../lib/private-files';

const PREFIX = 'enc:v1:';

/** Seals the data dir's key with something outside the data dir (the desktop app: Electron's safeStorage, the OS keychain). */
export interface KeyWrapper {
  /** Names it in messages. */
  name: string;
  wrap(key: Buffer): string;
  unwrap(text: string): Buffer;
}

/** Writes a key file whole (temp file renamed), readable by the user only. */
function writeKeyFile(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, text, { mode: 0o600 });
  fs.renameSync(temp, file);
}

/** Encrypts values at rest with AES-256-GCM under a key kept in the data dir (mode 0600), or sealed by a KeyWrapper. */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  /**
   * Loads the key, creating it on first use: `DATA_DIR/secret.key`, or with `wrapper`
   * `DATA_DIR/secret.key.sealed` (a key in clear found there is sealed and its file removed).
   */
  static open(dataDir: string, wrapper?: KeyWrapper): SecretBox {
    const file = path.join(dataDir, 'secret.key');
    const sealedFile = `${file}.sealed`;
    const read = (f: string): string | null => {
      try {
        return fs.readFileSync(f, 'utf8').trim();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    };
    const clear = read(file);
    const sealed = read(sealedFile);
    let key: Buffer;
    if (wrapper) {
      if (sealed !== null) {
        keepPrivate(sealedFile);
        try {
          key = wrapper.unwrap(sealed);
        } catch (err) {
          throw new Error(`${sealedFile} cannot be unsealed with ${wrapper.name} (${(err as Error).message}); was it sealed by another user or machine? Move it away to have a new key made (encrypted values will be lost)`);
        }
      } else {
        key = clear !== null ? Buffer.from(clear, 'base64') : randomBytes(32);
        writeKeyFile(sealedFile, `${wrapper.wrap(key)}\n`);
        if (clear !== null) fs.rmSync(file);
      }
    } else {
      if (clear === null && sealed !== null) {
        throw new Error(`${sealedFile} is sealed with the desktop app's OS keychain: open this data dir with the Spout desktop app, or give the service another --data-dir`);
      }
      key = clear !== null ? Buffer.from(clear, 'base64') : randomBytes(32);
      if (clear === null) fs.writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600 });
      else keepPrivate(file);
    }
    if (key.length !== 32) throw new Error(`${wrapper && sealed !== null ? sealedFile : file} does not hold a 32-byte key; move it away to have a new one made (encrypted values will be lost)`);
    return new SecretBox(key);
  }

  /** `enc:v1:<iv>.<tag>.<ciphertext>`, all base64. */
  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}${iv.toString('base64')}.${cipher.getAuthTag().toString('base64')}.${data.toString('base64')}`;
  }

  /** Reverses `seal`; throws if the value was tampered with or sealed under another key. */
  open(sealed: string): string {
    if (!sealed.startsWith(PREFIX)) throw new Error('value is not sealed');
    const [iv, tag, data] = sealed.slice(PREFIX.length).split('.');
    if (!iv || !tag || data === undefined) throw new Error('sealed value is malformed');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
  }
}
