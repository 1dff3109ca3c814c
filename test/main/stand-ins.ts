// Stand-ins for the Electron objects main/ modules take as parameters (Electron's binary cannot be
// downloaded here; its main process logic is tested under Node, as Electron Fiddle tests its own).
import type { SafeStorageLike } from '../../main/sealing';

/** safeStorage: a reversible "seal" (so a test can see it is not the clear text), availability and backend set by the test. */
export function fakeSafeStorage(options: { available?: boolean; backend?: string } = {}): SafeStorageLike & { sealed: number } {
  const storage = {
    sealed: 0,
    isEncryptionAvailable: () => options.available ?? true,
    getSelectedStorageBackend: () => options.backend ?? 'gnome_libsecret',
    encryptString(plain: string): Buffer {
      storage.sealed++;
      return Buffer.from(`sealed:${Buffer.from(plain).toString('hex')}`);
    },
    decryptString(sealed: Buffer): string {
      const text = sealed.toString();
      if (!text.startsWith('sealed:')) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return Buffer.from(text.slice(7), 'hex').toString();
    },
  };
  return storage;
}

type Listener = (...args: any[]) => void;

/** A webContents with the events the guards listen to; `emit` fires one and says whether it was prevented. */
export function fakeContents() {
  const listeners = new Map<string, Listener[]>();
  let openHandler: ((details: { url: string }) => { action: string }) | null = null;
  return {
    on(event: string, listener: Listener) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      return this;
    },
    setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }) {
      openHandler = handler;
    },
    /** Fires `event` with `url`; true if a listener prevented it. */
    emit(event: string, url?: string): boolean {
      let prevented = false;
      for (const l of listeners.get(event) ?? []) l({ preventDefault: () => (prevented = true) }, url);
      return prevented;
    },
    /** What the window-open handler answers for `url`. */
    open(url: string) {
      if (!openHandler) throw new Error('no window open handler');
      return openHandler({ url });
    },
    listened: () => [...listeners.keys()].sort(),
  };
}

/** ipcMain: records handlers; `invoke` calls one as a renderer would, from a frame of `url` (a subframe when `parent`). */
export function fakeIpcMain() {
  const handlers = new Map<string, (event: unknown, arg: unknown) => unknown>();
  return {
    handle(channel: string, listener: (event: any, arg: unknown) => unknown) {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, listener);
    },
    channels: () => [...handlers.keys()].sort(),
    async invoke(channel: string, arg: unknown, from: { url: string; parent?: unknown } | null) {
      const handler = handlers.get(channel);
      // ipcRenderer.invoke of a channel nobody handles is an error in Electron too.
      if (!handler) throw new Error(`No handler registered for '${channel}'`);
      return handler({ senderFrame: from && { url: from.url, parent: from.parent ?? null } }, arg);
    },
  };
}
