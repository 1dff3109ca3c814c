// The main process's IPC handlers: the channels of ipc.ts only, each argument parsed with its
// schema, and only for the top frame of a page of the instance the window shows. Electron's
// ipcMain and the app's pieces are passed in, so node:test runs them with stand-ins.
import { type IpcChannel, ipcChannels, type ProfileView } from './ipc';
import type { Profile, ProfileStore } from './profile';

/** The part of an IPC event the checks read. */
export interface IpcSenderEvent {
  senderFrame: { url: string; parent: unknown } | null;
}

/** The part of `ipcMain` used. */
export interface IpcRegistrar {
  handle(channel: string, listener: (event: IpcSenderEvent, arg: unknown) => unknown): void;
}

/** What the handlers reach of the app. */
export interface IpcDeps {
  /** Origin of the instance the window shows (`http://127.0.0.1:PORT`). */
  origin(): string;
  /** Whether it shows a remote instance. */
  showingRemote(): boolean;
  openExternal(url: string): Promise<void>;
  version(): string;
  profiles: ProfileStore;
  /** Loads the instance a saved profile names. */
  show(profile: Profile): void;
}

/**
 * Refuses IPC from anything but the top frame of a page of the instance shown (Electron's
 * checklist: validate every sender): an iframe, a page navigated elsewhere, a stale window.
 */
export function checkSender(event: IpcSenderEvent, origin: string): void {
  const frame = event.senderFrame;
  let from = '';
  try {
    from = frame ? new URL(frame.url).origin : '';
  } catch {
    // an unparsable URL is refused below
  }
  if (!frame || frame.parent || !origin || from !== origin) throw new Error('IPC refused: it came from a frame that is not the top page of the instance this window shows');
}

/** Registers one handler per channel of the allow-list; returns the channels registered. */
export function registerIpc(ipc: IpcRegistrar, deps: IpcDeps): IpcChannel[] {
  const handlers: { [C in IpcChannel]: (arg: ReturnType<(typeof ipcChannels)[C]['parse']>) => unknown } = {
    'shell:open-external': (url) => deps.openExternal(url),
    'app:version': () => deps.version(),
    'profile:get': () => deps.profiles.view(),
    'profile:set': (input): ProfileView => {
      let next: Profile = { mode: 'local' };
      if (input.mode === 'remote') {
        // A remote page may only send the window back to the local instance, never on to another one.
        if (deps.showingRemote()) throw new Error('choose a remote instance from the local instance’s Settings');
        const url = new URL(input.url).origin;
        const saved = deps.profiles.read();
        const apiKey = input.apiKey || (saved.mode === 'remote' && saved.url === url ? saved.apiKey : '');
        if (!apiKey) throw new Error('give the remote instance’s API key');
        next = { mode: 'remote', url, apiKey };
      }
      deps.profiles.write(next);
      // Answer the page first: the load that follows replaces it.
      setImmediate(() => deps.show(next));
      return deps.profiles.view();
    },
  };
  const channels = Object.keys(ipcChannels) as IpcChannel[];
  for (const channel of channels) {
    ipc.handle(channel, (event, arg) => {
      checkSender(event, deps.origin());
      const parsed = ipcChannels[channel].safeParse(arg);
      if (!parsed.success) throw new Error(`IPC ${channel}: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
      return (handlers[channel] as (a: unknown) => unknown)(parsed.data);
    });
  }
  return channels;
}
