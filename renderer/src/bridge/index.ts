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
let connectionState: ConnectionState = 'connecting';
let transport: StrataApi | null = null;

function setConnectionState(state: ConnectionState): void {
  connectionState = state;
  for (const listener of stateListeners) listener(state);
}

export function onConnectionState(listener: StateListener): () => void {
  stateListeners.add(listener);
  listener(connectionState);
  return () => stateListeners.delete(listener);
}

/**
 * Hands the renderer its transport to main. The entry (main.tsx) calls `startBridge` once; a test installs
 * its fake of main here, before it renders, and again for the next test — no module reload needed.
 * `connected` says whether the transport is open already (the preload is; a socket reports its own state).
 */
export function installBridge(next: StrataApi, connected = true): void {
  transport = next;
  setConnectionState(connected ? 'open' : 'connecting');
}

/** The app's transport: Electron's preload when present, else the WebSocket of the host that served the page. */
export function startBridge(): void {
  if (window.strata) {
    installBridge(window.strata);
    return;
  }
  installBridge(createWsBridge(`ws://${window.location.host}/ipc?token=${encodeURIComponent(hostToken())}`, setConnectionState), false);
}

function current(): StrataApi {
  if (!transport) throw new Error('The bridge to main is not started: call startBridge() (or installBridge in a test) first.');
  return transport;
}

/** Main's API for every caller in the renderer; it reaches whichever transport was installed last. */
export const api: StrataApi = {
  get invoke() {
    return current().invoke;
  },
  get on() {
    return current().on;
  },
};
