// Electron main process: starts the Spout service in-process and shows the UI in a window — this
// service's, or a remote instance's when the profile says so (Settings → Instance profile).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, dialog, ipcMain, session, shell, type IpcMainInvokeEvent } from 'electron';
import { resolveApiKey } from '../runtime/config';
import { startService, type RunningService } from '../runtime/index';
import { ipcChannels } from './ipc';
import { ProfileStore, type Profile } from './profile';
import { createWindow, preloadPath, type AppWindow } from './window';

const distDir = path.dirname(fileURLToPath(import.meta.url));
let service: RunningService | null = null;
let appWindow: AppWindow | null = null;
let profiles: ProfileStore;
/** Whether the window shows a remote instance (a failed load then falls back to the local one). */
let showingRemote = false;

/** The local service's UI link, with its current key (the Settings screen can rotate a key kept in the data dir). */
function localUiUrl(running: RunningService): string {
  return `${running.url}/?token=${encodeURIComponent(resolveApiKey(running.dataDir))}`;
}

/** Loads the instance the profile names. */
function showInstance(profile: Profile = profiles.read()): void {
  if (!appWindow || !service) return;
  showingRemote = profile.mode === 'remote';
  appWindow.show(profile.mode === 'remote' ? `${profile.url}/?token=${encodeURIComponent(profile.apiKey)}` : localUiUrl(service));
}

/** A remote instance that cannot be reached or refuses the key: show the local one and say why (the profile stays). */
function remoteFailed(reason: string): void {
  if (!showingRemote || !appWindow) return;
  const remote = appWindow.origin();
  showInstance({ mode: 'local' });
  void dialog.showMessageBox(appWindow.win, {
    type: 'warning',
    message: `Could not open the remote instance ${remote}: ${reason}.`,
    detail: 'The window shows the local instance. Change the instance profile in Settings.',
  });
}

/** Only pages of the instance the window shows may use IPC (Electron's checklist: validate the sender). */
function checkSender(event: IpcMainInvokeEvent): void {
  const url = event.senderFrame?.url;
  if (!appWindow || !url || new URL(url).origin !== appWindow.origin()) throw new Error('IPC from a page the window does not show');
}

function registerIpc(): void {
  ipcMain.handle('shell:open-external', (event, arg: unknown) => {
    checkSender(event);
    return shell.openExternal(ipcChannels['shell:open-external'].parse(arg));
  });
  ipcMain.handle('app:version', (event, arg: unknown) => {
    checkSender(event);
    ipcChannels['app:version'].parse(arg);
    return app.getVersion();
  });
  ipcMain.handle('profile:get', (event, arg: unknown) => {
    checkSender(event);
    ipcChannels['profile:get'].parse(arg);
    return profiles.view();
  });
  ipcMain.handle('profile:set', (event, arg: unknown) => {
    checkSender(event);
    const input = ipcChannels['profile:set'].parse(arg);
    let next: Profile = { mode: 'local' };
    if (input.mode === 'remote') {
      // A remote page may only send the window back to the local instance, never on to another one.
      if (showingRemote) throw new Error('choose a remote instance from the local instance’s Settings');
      const url = new URL(input.url).origin;
      const saved = profiles.read();
      const apiKey = input.apiKey || (saved.mode === 'remote' && saved.url === url ? saved.apiKey : '');
      if (!apiKey) throw new Error('give the remote instance’s API key');
      next = { mode: 'remote', url, apiKey };
    }
    profiles.write(next);
    // Answer the page first: the load below replaces it.
    setImmediate(() => showInstance(next));
    return profiles.view();
  });
}

async function start(): Promise<void> {
  // The renderer never needs camera, notifications or the like.
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  service = await startService({ dataDir: process.env.SPOUT_DATA_DIR ?? app.getPath('userData'), port: 0 });
  profiles = new ProfileStore(path.join(app.getPath('userData'), 'desktop-profile.json'));
  registerIpc();
  appWindow = createWindow(preloadPath(distDir), remoteFailed);
  showInstance();
}

if (!app.requestSingleInstanceLock()) app.quit();
app.whenReady().then(start, (err: Error) => {
  console.error(err);
  app.exit(1);
});
app.on('window-all-closed', () => app.quit());
app.on('before-quit', (event) => {
  if (!service) return;
  event.preventDefault();
  const running = service;
  service = null;
  void running.stop().finally(() => app.quit());
});
