import { contextBridge, ipcRenderer } from 'electron';
import { eventChannelNames, invokeChannelNames, type StrataApi } from '../common/ipc/contract.js';

/**
 * `window.strata`: one method per contract channel, derived from the contract, no logic and no
 * generic `invoke(channel)`. The only file besides main's router that touches ipcRenderer.
 */
const invoke = Object.fromEntries(
  invokeChannelNames.map((channel) => [channel, (request: unknown) => ipcRenderer.invoke(channel, request)]),
) as StrataApi['invoke'];

const on = Object.fromEntries(
  eventChannelNames.map((channel) => [
    channel,
    (listener: (payload: unknown) => void) => {
      const wrapped = (_event: unknown, payload: unknown) => listener(payload);
      ipcRenderer.on(channel, wrapped);
      return () => {
        ipcRenderer.removeListener(channel, wrapped);
      };
    },
  ]),
) as StrataApi['on'];

contextBridge.exposeInMainWorld('strata', { invoke, on } satisfies StrataApi);
