// Electron main process: starts the Spout service in-process and shows the UI in a window.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, ipcMain, session, shell } from 'electron';
import { startService, type RunningService } from '../runtime/index';
import { ipcChannels } from './ipc';
import { createWindow, preloadPath } from './window';

const distDir = path.dirname(fileURLToPath(import.meta.url));
let service: RunningService | null = null;

function registerIpc(): void {
  ipcMain.handle('shell:open-external', (_event, arg: unknown) => shell.openExternal(ipcChannels['shell:open-external'].parse(arg)));
  ipcMain.handle('app:version', (_event, arg: unknown) => {
    ipcChannels['app:version'].parse(arg);
    return app.getVersion();
  });
}

async function start(): Promise<void> {
  // The renderer never needs camera, notifications or the like.
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  service = await startService({ dataDir: process.env.SPOUT_DATA_DIR ?? app.getPath('userData'), port: 0 });
  registerIpc();
  createWindow(service.uiUrl, preloadPath(distDir));
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
