import { z } from 'zod';

/** Every IPC channel the renderer may use, with the schema of its argument. Nothing else is handled. */
export const ipcChannels = {
  /** Opens an http(s) link in the user's browser instead of inside the app. */
  'shell:open-external': z.string().url().refine((u) => /^https?:\/\//.test(u), 'only http(s) links open externally'),
  /** The app's version, for the about box. */
  'app:version': z.undefined(),
} as const;

export type IpcChannel = keyof typeof ipcChannels;
