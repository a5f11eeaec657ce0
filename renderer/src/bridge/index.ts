import type { StrataApi } from '../../../common/ipc/contract';
import { HOST_TOKEN_STORAGE_KEY } from '../../../common/host-token';
import { createWsBridge, type ConnectionState } from './ws-bridge';

declare global {
  interface Window {
    strata?: StrataApi;
  }
}

/**
 * In a browser tab served by `strata host`, the token arrives once in the address bar: keep it in
 * sessionStorage (so a reload works: the host's 403 page re-enters with it) and drop it from the visible URL and history.
 */
function hostToken(): string {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem(HOST_TOKEN_STORAGE_KEY, fromUrl);
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return sessionStorage.getItem(HOST_TOKEN_STORAGE_KEY) ?? '';
}

type StateListener = (state: ConnectionState) => void;
const stateListeners = new Set<StateListener>();
let connectionState: ConnectionState = window.strata ? 'open' : 'connecting';

export function onConnectionState(listener: StateListener): () => void {
  stateListeners.add(listener);
  listener(connectionState);
  return () => stateListeners.delete(listener);
}

/** The transport, chosen once: Electron's preload when present, else the host's WebSocket. */
export const api: StrataApi =
  window.strata ??
  createWsBridge(`ws://${window.location.host}/ipc?token=${encodeURIComponent(hostToken())}`, (state) => {
    connectionState = state;
    for (const listener of stateListeners) listener(state);
  });

export const shellKind: 'electron' | 'host' = window.strata ? 'electron' : 'host';
