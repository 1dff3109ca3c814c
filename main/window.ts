import path from 'node:path';
import { BrowserWindow, shell } from 'electron';

/**
 * The app window, following Electron's security checklist: context isolation, sandbox, no Node
 * in the page, and no navigation or new windows away from the local service.
 */
export function createWindow(uiUrl: string, preloadPath: string): BrowserWindow {
  const origin = new URL(uiUrl).origin;
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    title: 'Spout',
    show: false,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
    },
  });
  win.once('ready-to-show', () => win.show());
  win.webContents.on('will-navigate', (event, url) => {
    if (new URL(url).origin !== origin) event.preventDefault();
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url) && new URL(url).origin !== origin) void shell.openExternal(url);
    return { action: 'deny' };
  });
  void win.loadURL(uiUrl);
  return win;
}

/** Path of the preload bundle beside the main bundle. */
export function preloadPath(distDir: string): string {
  return path.join(distDir, 'preload.cjs');
}
