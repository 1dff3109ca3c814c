// The desktop app's preload bridge (main/preload.ts): present in the Electron window only.
import type { ProfileInput, ProfileView, SpoutDesktop } from '../../../main/ipc';

export type { ProfileInput, ProfileView, SpoutDesktop };

declare global {
  interface Window {
    spoutDesktop?: SpoutDesktop;
  }
}

/** The bridge, or null in a plain browser. */
export const desktop = (): SpoutDesktop | null => window.spoutDesktop ?? null;
