// What the window's pages may do, following Electron's security checklist: no navigation, redirect
// or new window away from the instance shown, no webviews, no permission granted or reported as
// granted. Electron's objects are passed in (tests use stand-ins), typed by the part used.

/** A navigation event of webContents: `preventDefault` stops it. */
export interface NavigationEvent {
  preventDefault(): void;
}

/** The part of `webContents` the guards use. */
export interface GuardedContents {
  on(event: 'will-navigate' | 'will-redirect' | 'will-frame-navigate', listener: (event: NavigationEvent, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: NavigationEvent) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

/** The part of a `session` the guards use. */
export interface GuardedSession {
  setPermissionRequestHandler(handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
  setPermissionCheckHandler(handler: (contents: unknown, permission: string) => boolean): void;
}

/** True if `url` is of `origin` (`https://host:port`); false for anything unparsable. */
export function sameOrigin(url: string, origin: string): boolean {
  try {
    return origin !== '' && new URL(url).origin === origin;
  } catch {
    return false;
  }
}

/**
 * Keeps a window on the instance it shows (`origin()`, which changes when the profile does):
 * navigations, redirects and subframe navigations elsewhere are stopped; new windows are denied,
 * an http(s) link elsewhere opening in the user's browser instead; webviews never attach.
 */
export function guardContents(contents: GuardedContents, origin: () => string, openExternal: (url: string) => void): void {
  const stayHome = (event: NavigationEvent, url: string) => {
    if (!sameOrigin(url, origin())) event.preventDefault();
  };
  contents.on('will-navigate', stayHome);
  contents.on('will-redirect', stayHome);
  contents.on('will-frame-navigate', stayHome);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//i.test(url) && !sameOrigin(url, origin())) openExternal(url);
    return { action: 'deny' };
  });
}

/** Denies every permission request (camera, notifications, …) and answers every permission check "no". */
export function guardSession(session: GuardedSession): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}
