import { z } from 'zod';
import { isLoopbackHost } from '../runtime/index';

/**
 * A remote instance's address: http(s) only (the window loads it, so no file: or other schemes),
 * and plain http only to this machine: its API key would cross the network in clear.
 */
const instanceUrl = z
  .string()
  .trim()
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'the instance URL must start with http:// or https://')
  .refine((u) => !/^http:/i.test(u) || isLoopbackHost(new URL(u).hostname), 'plain http to another machine would send its API key in clear: use https://, or an SSH tunnel to 127.0.0.1');

/**
 * Which Spout instance the window shows: the service this app runs, or another one reached by
 * URL and API key. An empty `apiKey` keeps the key saved for the same URL.
 */
export const profileInput = z.discriminatedUnion('mode', [z.object({ mode: z.literal('local') }).strict(), z.object({ mode: z.literal('remote'), url: instanceUrl, apiKey: z.string().trim().max(1000) }).strict()]);
export type ProfileInput = z.infer<typeof profileInput>;

/** A profile as the page sees it: never the key itself. */
export type ProfileView =
  | { mode: 'local' }
  | {
      mode: 'remote';
      /** The instance's origin, `https://host:port`. */
      url: string;
      /** Where the key is kept: sealed by the OS keychain (`safeStorage`); never in clear. */
      keyStorage: 'safeStorage';
    };

/** Every IPC channel the renderer may use, with the schema of its argument. Nothing else is handled. */
export const ipcChannels = {
  /** Opens an http(s) link in the user's browser instead of inside the app. */
  'shell:open-external': z
    .string()
    .url()
    .refine((u) => /^https?:\/\//.test(u), 'only http(s) links open externally'),
  /** The app's version, for the about box. */
  'app:version': z.undefined(),
  /** The instance profile (without the key). */
  'profile:get': z.undefined(),
  /** Saves the instance profile and loads the chosen instance's UI in the window. */
  'profile:set': profileInput,
} as const;

export type IpcChannel = keyof typeof ipcChannels;

/** What the preload exposes to the page as `window.spoutDesktop`. */
export interface SpoutDesktop {
  openExternal(url: string): Promise<void>;
  version(): Promise<string>;
  getProfile(): Promise<ProfileView>;
  /** Resolves with the saved profile; the window then loads the chosen instance. */
  setProfile(profile: ProfileInput): Promise<ProfileView>;
}
