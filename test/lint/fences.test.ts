import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

/** Proves each fence of eslint.config.js bites: a wrong import in the wrong folder is an error. */
const eslint = new ESLint({ cwd: process.cwd() });

async function lint(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

const restricted = (messages: string[]) =>
  messages.filter((m) => m.startsWith('no-restricted-imports') || m.startsWith('no-restricted-syntax'));

describe('the layer fences', () => {
  it.each([
    ['main/core imports electron', 'main/core/agent/x.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    ['main/host imports electron', 'main/host/x.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    ['the renderer imports a Node built-in', 'renderer/src/features/x.ts', "import fs from 'node:fs';\nexport const a = fs;\n"],
    ['the renderer imports fs without node:', 'renderer/src/x.ts', "import { readFileSync } from 'fs';\nexport const a = readFileSync;\n"],
    ['the renderer imports a Node-only package', 'renderer/src/x.ts', "import chokidar from 'chokidar';\nexport const a = chokidar;\n"],
    ['the renderer imports main code', 'renderer/src/x.ts', "import { createServices } from '../../main/core/services';\nexport const a = createServices;\n"],
    ['a component imports zustand', 'renderer/src/features/chat/x.tsx', "import { create } from 'zustand';\nexport const a = create;\n"],
    ['a component imports zustand/react/shallow', 'renderer/src/x.ts', "import { useShallow } from 'zustand/react/shallow';\nexport const a = useShallow;\n"],
    ['common imports node:path', 'common/x.ts', "import path from 'node:path';\nexport const a = path;\n"],
    ['an Electron file other than the router imports ipcMain', 'main/electron/window-x.ts', "import { ipcMain } from 'electron';\nexport const a = ipcMain;\n"],
    ['the Electron entry calls ipcMain itself', 'main/electron/main.ts', "import { ipcMain } from 'electron';\nipcMain.handle('x', () => 1);\n"],
    // The same fences through the side doors: subpaths, import(), require(), default imports, main/electron code.
    ['main/core imports electron/main', 'main/core/agent/x.ts', "import { app } from 'electron/main';\nexport const a = app;\n"],
    ['main/core imports electron with import()', 'main/core/agent/x.ts', "export const load = () => import('electron');\n"],
    ['main/core requires electron', 'main/core/agent/x.ts', "declare const require: (m: string) => unknown;\nexport const a = require('electron/common');\n"],
    ['main/core imports main/electron code', 'main/core/agent/x.ts', "import { createMainWindow } from '../../electron/window.js';\nexport const a = createMainWindow;\n"],
    ['the host imports main/electron code', 'main/host/x.ts', "import { APP_HOST } from '../electron/app-protocol.js';\nexport const a = APP_HOST;\n"],
    ['common imports electron/renderer', 'common/x.ts', "import { ipcRenderer } from 'electron/renderer';\nexport const a = ipcRenderer;\n"],
    ['the renderer imports fs/promises with import()', 'renderer/src/x.ts', "export const load = () => import('node:fs/promises');\n"],
    ['the renderer imports a Node-only package subpath', 'renderer/src/x.ts', "import Anthropic from '@anthropic-ai/sdk/index';\nexport const a = Anthropic;\n"],
    ['the store imports main code', 'renderer/src/store/x.ts', "import { createServices } from '../../../main/core/services';\nexport const a = createServices;\n"],
    ['an Electron file reaches ipcMain through the default export', 'main/electron/window-x.ts', "import electron from 'electron';\nelectron.ipcMain.handle('x', () => 1);\n"],
    ['an Electron file destructures ipcMain', 'main/electron/window-x.ts', "import electron from 'electron';\nconst { ipcMain } = electron;\nexport const a = ipcMain;\n"],
    ['an Electron file imports ipcMain from electron/main', 'main/electron/window-x.ts', "import { ipcMain } from 'electron/main';\nexport const a = ipcMain;\n"],
    ['the preload helper imports ipcRenderer from electron/renderer', 'preload/x.ts', "import { ipcRenderer } from 'electron/renderer';\nexport const a = ipcRenderer;\n"],
  ])('fails lint when %s', async (_label, file, code) => {
    expect(restricted(await lint(file, code))).not.toEqual([]);
  });

  it.each([
    ['the store imports zustand', 'renderer/src/store/x.ts', "import { create } from 'zustand';\nexport const a = create;\n"],
    ['the router imports ipcMain', 'main/electron/ipc-router.ts', "import type { IpcMain } from 'electron';\nexport type A = IpcMain;\n"],
    ['main/electron imports electron', 'main/electron/window-y.ts', "import { BrowserWindow } from 'electron';\nexport const a = BrowserWindow;\n"],
    ['main/core imports node built-ins', 'main/core/x.ts', "import fs from 'node:fs';\nexport const a = fs;\n"],
    ['main/core imports its own electron-free code', 'main/core/agent/x.ts', "import { createServices } from '../services.js';\nexport const a = createServices;\n"],
    ['the renderer imports common/', 'renderer/src/features/x.ts', "import { ok } from '../../../common/result';\nexport const a = ok;\n"],
    ['the Electron entry hands ipcMain to the router', 'main/electron/main.ts', "import { ipcMain } from 'electron';\nimport { bindIpcRouter } from './ipc-router.js';\nexport const a = () => bindIpcRouter(ipcMain);\n"],
  ])('allows %s', async (_label, file, code) => {
    expect(restricted(await lint(file, code))).toEqual([]);
  });
});
