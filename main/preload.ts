// Runs sandboxed before the renderer: exposes named methods only, never ipcRenderer itself.
import { contextBridge, ipcRenderer } from 'electron';
import type { IpcChannel } from './ipc';

const invoke = (channel: IpcChannel, arg?: unknown) => ipcRenderer.invoke(channel, arg);

contextBridge.exposeInMainWorld('spoutDesktop', {
  openExternal: (url: string): Promise<void> => invoke('shell:open-external', url),
  version: (): Promise<string> => invoke('app:version'),
});
