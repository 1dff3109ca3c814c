import path from 'node:path';
import { BrowserWindow } from 'electron';

/** The app window and the instance it shows. */
export interface AppWindow {
  win: BrowserWindow;
  /** Loads an instance's UI by a sign-in link (`<origin>/?token=<one-time token>`); from then on the window stays on that origin. */
  show(uiUrl: string): void;
  /** The origin of the instance shown: the only one whose pages may navigate or use IPC. */
  origin(): string;
}

/**
 * The app window, following Electron's security checklist: context isolation, sandbox, no Node
 * in the page, no webviews (navigation and new windows are guarded for every webContents in
 * guards.ts). `onLoadFailed` hears of a main-frame load that failed or answered an HTTP error.
 */
export function createWindow(preloadPath: string, onLoadFailed: (reason: string) => void): AppWindow {
  let origin = '';
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
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      // Middle-click (auxclick) can open links in ways will-navigate does not see.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  win.once('ready-to-show', () => win.show());
  win.webContents.on('did-fail-load', (_event, code, description, _url, isMainFrame) => {
    // -3 (ERR_ABORTED): this load was replaced by another one, such as the next `show`.
    if (isMainFrame && code !== -3) onLoadFailed(description);
  });
  win.webContents.on('did-navigate', (_event, _url, status) => {
    if (status >= 400) onLoadFailed(status === 401 ? 'the API key was refused (401)' : `it answered ${status}`);
  });
  return {
    win,
    show(uiUrl) {
      origin = new URL(uiUrl).origin;
      // Failures are reported through did-fail-load.
      win.loadURL(uiUrl).catch(() => undefined);
    },
    origin: () => origin,
  };
}

/** Path of the preload bundle beside the main bundle. */
export function preloadPath(distDir: string): string {
  return path.join(distDir, 'preload.cjs');
}
