import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, ipcMain, protocol, safeStorage, session, BrowserWindow } from 'electron';
import { createServices } from '../core/services.js';
import { createDispatcher } from '../core/ipc/index.js';
import { createHandlers } from '../core/ipc/index.js';
import { trackInFlight } from '../core/ipc/index.js';
import { loadKeytarStore } from '../core/auth/index.js';
import { stderrLogger } from '../core/ports.js';
import { APP_HOST, APP_SCHEME, registerAppProtocol } from './app-protocol.js';
import { bindIpcRouter, sendEvent } from './ipc-router.js';
import { chooseCredentialStore } from './safe-storage-store.js';
import { createMainWindow } from './window.js';

/** The Electron entry: the only place that wires Electron to the engines. */

const here = path.dirname(fileURLToPath(import.meta.url));
const rendererDir = path.join(here, '..', 'renderer');
const preloadFile = path.join(here, '..', 'preload', 'index.cjs');
const devServerUrl = app.isPackaged ? undefined : process.env.STRATA_DEV_SERVER_URL;

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void start();
}

async function start(): Promise<void> {
  await app.whenReady();
  const logger = stderrLogger();
  const appDataDir = process.env.STRATA_APP_DATA ?? app.getPath('userData');
  const credentials = await chooseCredentialStore({ loadKeytar: () => loadKeytarStore(), safeStorage, appDataDir, logger });
  const services = await createServices({ appDataDir, shell: 'electron', credentials, logger });
  const requests = trackInFlight(createDispatcher(createHandlers(services, 'electron'), logger));

  registerAppProtocol(protocol, rendererDir);
  // No web permission (camera, notifications, …) is ever granted to the renderer.
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));

  const windows = new Set<BrowserWindow>();
  const trustedIds = new Set<number>();
  const devOrigin = devServerUrl ? new URL(devServerUrl).origin : null;
  bindIpcRouter(
    ipcMain,
    requests.dispatch,
    {
      trustedIds,
      allowedUrls: (url) => (url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST) || url.origin === devOrigin,
    },
    logger,
  );
  services.events.subscribe((channel, payload) =>
    sendEvent([...windows].map((w) => w.webContents), channel, payload),
  );

  const open = () => {
    const window = createMainWindow(preloadFile, devServerUrl);
    const id = window.webContents.id;
    windows.add(window);
    trustedIds.add(id);
    window.on('closed', () => {
      windows.delete(window);
      trustedIds.delete(id);
    });
  };
  open();

  app.on('second-instance', () => {
    const [first] = windows;
    if (first) {
      if (first.isMinimized()) first.restore();
      first.focus();
    }
  });
  app.on('activate', () => {
    if (windows.size === 0) open();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  // Quitting closes the windows first, so each renderer's unload sends its last unsaved edit while the
  // engines can still write it; waits (bounded) for those requests; then closes the engines: a running
  // turn stops cleanly, memory work and the last team push get their bounded moment, and the app quits.
  let closed = false;
  let closing: Promise<void> | null = null;
  app.on('before-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    closing ??= closeWindows([...windows], 3_000)
      .then(() => requests.settled(5_000))
      .then(() => services.close())
      .catch((error: unknown) => logger.error('closing failed', { error: (error as Error).message }))
      .finally(() => {
        closed = true;
        app.quit();
      });
  });
}

/** Closes the windows and waits until each has unloaded (or the time is up). */
function closeWindows(windows: BrowserWindow[], timeoutMs: number): Promise<void> {
  const each = windows.map(
    (window) =>
      new Promise<void>((resolve) => {
        if (window.isDestroyed()) return resolve();
        window.once('closed', () => resolve());
        window.close();
      }),
  );
  return Promise.race([Promise.all(each).then(() => undefined), new Promise<void>((resolve) => setTimeout(resolve, timeoutMs))]);
}
