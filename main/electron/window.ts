import path from 'node:path';
import { BrowserWindow, shell, nativeTheme } from 'electron';
import { APP_ORIGIN_URL } from './app-protocol.js';

/** Only http(s) leaves the app, and only into the system browser. */
function openExternally(url: string): void {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'https:' || parsed.protocol === 'http:') void shell.openExternal(parsed.toString());
  } catch {
    // Not a URL: nothing to open.
  }
}

/** The main window with the security baseline of STYLE.md. */
export function createMainWindow(preloadFile: string, devServerUrl?: string): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Strata',
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#16181d' : '#ffffff',
    webPreferences: {
      preload: path.resolve(preloadFile),
      sandbox: true,
      contextIsolation: true,
      // Node reaches no page, worker or frame (docs/security.md): each is spelled out, never left to a default.
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      spellcheck: true,
    },
  });
  window.once('ready-to-show', () => window.show());
  window.webContents.setWindowOpenHandler(({ url }) => {
    openExternally(url);
    return { action: 'deny' };
  });
  window.webContents.on('will-navigate', (event, url) => {
    event.preventDefault();
    openExternally(url);
  });
  window.webContents.on('will-attach-webview', (event) => event.preventDefault());
  void window.loadURL(devServerUrl ?? APP_ORIGIN_URL);
  return window;
}
