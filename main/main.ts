// Electron main process: starts the Spout service in-process and shows the UI in a window — this
// service's, or a remote instance's when the profile says so (Settings → Instance profile). The
// logic lives in modules that take Electron's pieces as parameters (guards, IPC handlers, profile
// store, sealing), tested under Node in test/main/; this file only wires them to Electron.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, dialog, ipcMain, safeStorage, session, shell } from 'electron';
import { type RunningService, startService, watchLauncher } from '../runtime/index';
import { type GuardedContents, type GuardedSession, guardContents, guardSession } from './guards';
import { type IpcRegistrar, registerIpc } from './ipc-handlers';
import { findNode } from './node-binary';
import { type Profile, ProfileStore } from './profile';
import { remoteSignInLink } from './remote-sign-in';
import { secretKeyWrapper } from './sealing';
import { type AppWindow, createWindow, preloadPath } from './window';

const distDir = path.dirname(fileURLToPath(import.meta.url));
let service: RunningService | null = null;
let appWindow: AppWindow | null = null;
let profiles: ProfileStore;
/** Whether the window shows a remote instance (a failed load then falls back to the local one). */
let showingRemote = false;
/** Counts the instances shown: a remote's sign-in link that arrives after another show is dropped. */
let shows = 0;

const openExternal = (url: string) => shell.openExternal(url);

/** Loads the instance the profile names, signed in with a fresh one-time link (never the API key in a URL). */
function showInstance(profile: Profile = profiles.read()): void {
  if (!appWindow || !service) return;
  showingRemote = profile.mode === 'remote';
  const show = ++shows;
  if (profile.mode !== 'remote') return appWindow.show(service.signInUrl());
  void remoteSignInLink(profile.url, profile.apiKey).then((link) => {
    if (!appWindow || show !== shows) return;
    if ('url' in link) appWindow.show(link.url);
    else remoteFailed(link.problem, profile.url);
  });
}

/** A remote instance that cannot be reached or refuses the key: show the local one and say why (the profile stays). */
function remoteFailed(reason: string, remote = appWindow?.origin() ?? ''): void {
  if (!showingRemote || !appWindow) return;
  showInstance({ mode: 'local' });
  void dialog.showMessageBox(appWindow.win, {
    type: 'warning',
    message: `Could not open the remote instance ${remote}: ${reason}.`,
    detail: 'The window shows the local instance. Change the instance profile in Settings.',
  });
}

async function start(): Promise<void> {
  guardSession(session.defaultSession as unknown as GuardedSession);
  app.on('web-contents-created', (_event, contents) =>
    guardContents(
      contents as unknown as GuardedContents,
      () => appWindow?.origin() ?? '',
      (url) => void openExternal(url),
    ),
  );
  const node = findNode();
  if ('problem' in node) {
    dialog.showErrorBox('Spout needs Node.js', node.problem);
    app.exit(1);
    return;
  }
  service = await startService({ dataDir: process.env.SPOUT_DATA_DIR ?? app.getPath('userData'), port: 0, nodePath: node.path, secretKeyWrapper: secretKeyWrapper(safeStorage) });
  profiles = new ProfileStore(path.join(app.getPath('userData'), 'desktop-profile.json'), safeStorage);
  registerIpc(ipcMain as unknown as IpcRegistrar, {
    origin: () => appWindow?.origin() ?? '',
    showingRemote: () => showingRemote,
    openExternal,
    version: () => app.getVersion(),
    profiles,
    show: showInstance,
  });
  appWindow = createWindow(preloadPath(distDir), remoteFailed);
  showInstance();
}

if (!app.requestSingleInstanceLock()) app.quit();
app
  .whenReady()
  .then(start)
  .catch((err: Error) => {
    console.error(err);
    app.exit(1);
  });
app.on('window-all-closed', () => app.quit());
// Started by `npm start`: quit with it, even when it was killed outright.
watchLauncher(() => app.quit());
app.on('before-quit', (event) => {
  if (!service) return;
  event.preventDefault();
  const running = service;
  service = null;
  void running.stop().finally(() => app.quit());
});
