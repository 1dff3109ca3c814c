import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { keepPrivate } from './private-files';

const PREFIX = 'enc:v1:';

/** Encrypts values at rest with AES-256-GCM under a key kept in the data dir (mode 0600). */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  /** Loads `DATA_DIR/secret.key`, creating it on first use. */
  static open(dataDir: string): SecretBox {
    const file = path.join(dataDir, 'secret.key');
    let key: Buffer;
    try {
      key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
      keepPrivate(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      key = randomBytes(32);
      fs.writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600 });
    }
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key; move it away to have a new one made (encrypted values will be lost)`);
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
