import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';

/**
 * Electron cannot start here (docs/architecture.md), so `electron` is replaced by a stand-in that keeps
 * what the shell asks of it: the options of every BrowserWindow, the handlers put on its webContents,
 * and what it tried to open in the system browser. The assertions are on those options, exactly as
 * main/electron passes them to the real BrowserWindow.
 */
const seen = vi.hoisted(() => ({
  windows: [] as { options: Record<string, unknown>; handlers: Map<string, (...args: unknown[]) => unknown>; openHandler: ((details: { url: string }) => unknown) | null }[],
  opened: [] as string[],
}));

vi.mock('electron', () => {
  class BrowserWindow {
    readonly webContents: { on: (event: string, fn: (...args: unknown[]) => unknown) => void; setWindowOpenHandler: (fn: (details: { url: string }) => unknown) => void };
    constructor(options: Record<string, unknown>) {
      const record: (typeof seen.windows)[number] = { options, handlers: new Map(), openHandler: null };
      seen.windows.push(record);
      this.webContents = {
        on: (event, fn) => void record.handlers.set(event, fn),
        setWindowOpenHandler: (fn) => void (record.openHandler = fn),
      };
    }
    once(): void {}
    loadURL(): Promise<void> {
      return Promise.resolve();
    }
  }
  return { BrowserWindow, nativeTheme: { shouldUseDarkColors: false }, shell: { openExternal: async (url: string) => void seen.opened.push(url) } };
});

const { createMainWindow } = await import('../../../main/electron/window.js');

const electronDir = path.join(import.meta.dirname, '..', '..', '..', 'main', 'electron');

describe('the Electron shell gives no page Node', () => {
  it('opens its window sandboxed and context-isolated, with Node integration off for the page, its workers and its frames', () => {
    seen.windows.length = 0;
    createMainWindow('dist/preload/index.cjs');
    expect(seen.windows).toHaveLength(1);
    const prefs = seen.windows[0]!.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
    });
    // Nothing that loosens the web security Electron starts from.
    for (const key of ['webSecurity', 'allowRunningInsecureContent', 'experimentalFeatures', 'enableBlinkFeatures']) expect(prefs).not.toHaveProperty(key);
    expect(path.isAbsolute(prefs.preload as string)).toBe(true);
  });

  it('opens no second window or webview: window.open is denied (http(s) goes to the system browser), webviews and navigation are refused', () => {
    seen.windows.length = 0;
    seen.opened.length = 0;
    createMainWindow('preload.cjs');
    const { handlers, openHandler } = seen.windows[0]!;
    expect(openHandler!({ url: 'https://example.com/a' })).toEqual({ action: 'deny' });
    expect(openHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(seen.opened).toEqual(['https://example.com/a']);
    for (const event of ['will-attach-webview', 'will-navigate']) {
      const prevented = vi.fn();
      handlers.get(event)!({ preventDefault: prevented }, {}, 'app://strata/elsewhere');
      expect(prevented, event).toHaveBeenCalledOnce();
    }
    expect(seen.windows).toHaveLength(1);
  });

  it('builds every window in window.ts, and no file of the shell or the preload turns a protection off', async () => {
    const files = [...(await fs.readdir(electronDir)).map((f) => path.join(electronDir, f)), path.join(electronDir, '..', '..', 'preload', 'index.ts')];
    const sources = await Promise.all(files.filter((f) => f.endsWith('.ts')).map(async (f) => ({ file: path.basename(f), text: await fs.readFile(f, 'utf8') })));
    expect(sources.filter((s) => /new\s+BrowserWindow\s*\(|new\s+BrowserView\s*\(|WebContentsView\s*\(/.test(s.text)).map((s) => s.file)).toEqual(['window.ts']);
    const loosened = /nodeIntegration\w*\s*:\s*true|contextIsolation\s*:\s*false|sandbox\s*:\s*false|webviewTag\s*:\s*true|webSecurity\s*:\s*false|allowRunningInsecureContent\s*:\s*true/;
    expect(sources.filter((s) => loosened.test(s.text)).map((s) => s.file)).toEqual([]);
  });
});
