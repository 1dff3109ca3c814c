// The instance profile of the desktop app: which Spout the window shows. Kept as JSON in
// Electron's userData folder (mode 0600), the API key sealed with safeStorage where the OS has a
// keychain, else in the file itself.
import fs from 'node:fs';
import path from 'node:path';
import { safeStorage } from 'electron';
import { profileInput, type ProfileView } from './ipc';

export type Profile = { mode: 'local' } | { mode: 'remote'; url: string; apiKey: string };

/** The file's shape: one of the two key fields is set for a remote profile. */
type Stored = { mode: 'local' } | { mode: 'remote'; url: string; apiKey?: string; sealedApiKey?: string };

const LOCAL: Profile = { mode: 'local' };

export class ProfileStore {
  constructor(private readonly file: string) {}

  /** The saved profile; local when there is none or it cannot be read (a key sealed elsewhere, a hand-edited file). */
  read(): Profile {
    const stored = this.stored();
    if (stored?.mode !== 'remote') return LOCAL;
    const url = profileInput.safeParse({ mode: 'remote', url: stored.url, apiKey: '' });
    if (!url.success || url.data.mode !== 'remote') return LOCAL;
    let apiKey = stored.apiKey;
    try {
      if (typeof stored.sealedApiKey === 'string') apiKey = safeStorage.decryptString(Buffer.from(stored.sealedApiKey, 'base64'));
    } catch {
      return LOCAL;
    }
    return typeof apiKey === 'string' && apiKey ? { mode: 'remote', url: new URL(url.data.url).origin, apiKey } : LOCAL;
  }

  /** The saved profile as the page may see it. */
  view(): ProfileView {
    const profile = this.read();
    if (profile.mode === 'local') return { mode: 'local' };
    const stored = this.stored();
    return { mode: 'remote', url: profile.url, keyStorage: stored?.mode === 'remote' && stored.sealedApiKey ? 'safeStorage' : 'file' };
  }

  /** Saves a profile: written to a temporary file (0600) and renamed, so a crash never leaves half a file. */
  write(profile: Profile): void {
    const stored: Stored =
      profile.mode === 'local' ? LOCAL
      : safeStorage.isEncryptionAvailable() ? { mode: 'remote', url: profile.url, sealedApiKey: safeStorage.encryptString(profile.apiKey).toString('base64') }
      : { mode: 'remote', url: profile.url, apiKey: profile.apiKey };
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.tmp`;
    fs.writeFileSync(tmp, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
    fs.chmodSync(tmp, 0o600); // the mode above applies only when the file is created
    fs.renameSync(tmp, this.file);
  }

  private stored(): Stored | null {
    try {
      const value = JSON.parse(fs.readFileSync(this.file, 'utf8')) as unknown;
      return value && typeof value === 'object' ? (value as Stored) : null;
    } catch {
      return null;
    }
  }
}
