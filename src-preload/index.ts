// The preload (ARCHITECTURE.md, "Layers"): exactly one bridge, `window.mooring`, carrying router
// messages on one channel. Nothing else: no ipcRenderer, no process, no channel of the page's choosing.
import { contextBridge, ipcRenderer } from 'electron';
import { IPC_CHANNEL, type IpcRequest, type IpcResponse, type MooringBridge } from '../shared/ipc';

const listeners = new Set<(m: IpcResponse) => void>();
// The Electron event object (with its sender) never reaches the page: only the message does.
ipcRenderer.on(IPC_CHANNEL, (_event, message: IpcResponse) => {
  for (const l of listeners) l(message);
});

const bridge: MooringBridge = {
  send: (message: IpcRequest) => ipcRenderer.send(IPC_CHANNEL, message),
  onMessage: (listener) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
};

contextBridge.exposeInMainWorld('mooring', bridge);
