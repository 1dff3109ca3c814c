// Runs sandboxed before the renderer: exposes named methods only, never ipcRenderer itself.
import { contextBridge, ipcRenderer } from 'electron';
import type { IpcChannel, SpoutDesktop } from './ipc';

const invoke = (channel: IpcChannel, arg?: unknown) => ipcRenderer.invoke(channel, arg);

const bridge: SpoutDesktop = {
  openExternal: (url) => invoke('shell:open-external', url),
  version: () => invoke('app:version'),
  getProfile: () => invoke('profile:get'),
  setProfile: (profile) => invoke('profile:set', profile),
};

contextBridge.exposeInMainWorld('spoutDesktop', bridge);
