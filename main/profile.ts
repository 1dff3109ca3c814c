// The instance profile of the desktop app: which Spout the window shows. Kept as JSON in
// Electron's userData folder (mode 0600, written atomically), a remote's API key sealed with
// safeStorage; where the OS offers no real keychain, a remote profile is refused rather than its
// key kept in clear. safeStorage is passed in (tests use a stand-in).
import fs from 'node:fs';
import path from 'node:path';
import { type ProfileView, profileInput } from './ipc';
import { type SafeStorageLike, sealingAvailable } from './sealing';

export type Profile = { mode: 'local' } | { mode: 'remote'; url: string; apiKey: string };

/** The file's shape. Files written by older versions may hold `apiKey` in clear: it is not read. */
type Stored = { mode: 'local' } | { mode: 'remote'; url: string; sealedApiKey?: string };

const LOCAL: Profile = { mode: 'local' };

/** Saving a profile was refused; the message says why and what to do. */
export class ProfileRefused extends Error {}

export class ProfileStore {
  constructor(
    private readonly file: string,
    private readonly safeStorage: SafeStorageLike,
    private readonly platform: string = process.platform,
  ) {}

  /** The saved profile; local when there is none or it cannot be read (a key sealed elsewhere, a hand-edited file, a key kept in clear). */
  read(): Profile {
    const stored = this.stored();
    if (stored?.mode !== 'remote' || typeof stored.sealedApiKey !== 'string') return LOCAL;
    const url = profileInput.safeParse({ mode: 'remote', url: stored.url, apiKey: '' });
    if (!url.success || url.data.mode !== 'remote') return LOCAL;
    let apiKey: string;
    try {
      apiKey = this.safeStorage.decryptString(Buffer.from(stored.sealedApiKey, 'base64'));
    } catch {
      return LOCAL;
    }
    return apiKey ? { mode: 'remote', url: new URL(url.data.url).origin, apiKey } : LOCAL;
  }

  /** The saved profile as the page may see it. */
  view(): ProfileView {
    const profile = this.read();
    return profile.mode === 'local' ? { mode: 'local' } : { mode: 'remote', url: profile.url, keyStorage: 'safeStorage' };
  }

  /**
   * Saves a profile: written to a temporary file (0600) and renamed, so a crash never leaves half a
   * file. A remote key is sealed with safeStorage; without a real keychain the save is refused.
   */
  write(profile: Profile): void {
    if (profile.mode === 'remote' && !sealingAvailable(this.safeStorage, this.platform)) {
      throw new ProfileRefused(
        'this system offers no keychain to seal the remote instance’s API key (Electron safeStorage is unavailable, or only its basic_text fallback on Linux), and Spout never stores the key in clear; install and unlock a keyring (GNOME Keyring, KWallet), or reach the remote instance from the CLI with spout login',
      );
    }
    const stored: Stored = profile.mode === 'local' ? LOCAL : { mode: 'remote', url: profile.url, sealedApiKey: this.safeStorage.encryptString(profile.apiKey).toString('base64') };
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
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
