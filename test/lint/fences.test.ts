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

/** Messages of one of our own fence rules (scripts/lint/fences-plugin.mjs). */
const fenceErrors = (messages: string[], rule: string) => messages.filter((m) => m.startsWith(`strata/${rule}:`));

describe('the fences between our own folders', () => {
  it.each([
    ['common imports the composition root', 'common/x.ts', "import { createServices } from '../main/core/services.js';\nexport const a = createServices;\n"],
    ['common imports a type from the server', 'common/team-memory/x.ts', "import type { TeamServer } from '../../server/team-server.js';\nexport type A = TeamServer;\n"],
    ['common imports renderer code with import()', 'common/x.ts', "export const load = () => import('../renderer/src/bridge/index.js');\n"],
    ['main/core imports the host', 'main/core/vault/x.ts', "import { startHost } from '../../host/host-server.js';\nexport const a = startHost;\n"],
    ['main/core imports the CLI', 'main/core/chat/x.ts', "import { runCli } from '../../cli/index.js';\nexport const a = runCli;\n"],
    ['main/core imports the server', 'main/core/team-sync/x.ts', "import type { TeamServer } from '../../../server/team-server.js';\nexport type A = TeamServer;\n"],
    ['a root file of main/core imports the Electron shell', 'main/core/x.ts', "export const load = () => import('../electron/main.js');\n"],
    ['the server imports a port from main/core', 'server/auth/x.ts', "import type { Clock } from '../../main/core/ports.js';\nexport type A = Clock;\n"],
    ['the server imports an engine', 'server/x.ts', "import { scanText } from '../main/core/secrets/index.js';\nexport const a = scanText;\n"],
    ['the preload imports an engine', 'preload/x.ts', "import { Vault } from '../main/core/vault/index.js';\nexport const a = Vault;\n"],
    ['the preload imports common/ outside the contract', 'preload/x.ts', "import { ok } from '../common/result.js';\nexport const a = ok;\n"],
  ])('fails lint when %s', async (_label, file, code) => {
    expect(fenceErrors(await lint(file, code), 'layers')).not.toEqual([]);
  });

  it.each([
    ['common imports common', 'common/team-memory/x.ts', "import { ok } from '../result.js';\nexport const a = ok;\n"],
    ['main/core imports common', 'main/core/vault/x.ts', "import { ok } from '../../../common/result.js';\nexport const a = ok;\n"],
    ['the server imports common', 'server/auth/x.ts', "import type { Clock } from '../../common/ports.js';\nexport type A = Clock;\n"],
    ['the preload imports the contract', 'preload/x.ts', "import { invokeChannelNames } from '../common/ipc/contract.js';\nexport const a = invokeChannelNames;\n"],
    ['the host imports the composition root', 'main/host/x.ts', "import { createServices } from '../core/services.js';\nexport const a = createServices;\n"],
  ])('allows %s', async (_label, file, code) => {
    expect(fenceErrors(await lint(file, code), 'layers')).toEqual([]);
  });
});

describe('engines are imported through their index.ts', () => {
  it.each([
    ['an engine imports a file inside another', 'main/core/chat/x.ts', "import { VaultRootPointer } from '../vault/vault-root.js';\nexport const a = VaultRootPointer;\n"],
    ['an engine imports only a type from inside another', 'main/core/compact/x.ts', "import type { TranscriptRecord } from '../transcripts/records.js';\nexport type A = TranscriptRecord;\n"],
    ['an index re-exports from inside another engine', 'main/core/vault/index.ts', "export type { SearchQuery } from '../search/search-index.js';\n"],
    ['the composition root reaches inside an engine', 'main/core/x.ts', "import { ChatRunner } from './chat/chat-runner.js';\nexport const a = ChatRunner;\n"],
    ['the CLI reaches inside an engine', 'main/cli/commands/x.ts', "import { SettingsStore } from '../../core/settings/settings-store.js';\nexport const a = SettingsStore;\n"],
    ['the Electron shell reaches inside an engine with import()', 'main/electron/x.ts', "export const load = () => import('../core/ipc/dispatcher.js');\n"],
  ])('fails lint when %s', async (_label, file, code) => {
    expect(fenceErrors(await lint(file, code), 'engine-entry')).not.toEqual([]);
  });

  it.each([
    ['an engine imports another through its index', 'main/core/chat/x.ts', "import { Vault } from '../vault/index.js';\nexport const a = Vault;\n"],
    ['an engine imports its own files', 'main/core/vault/x.ts', "import { computeHealth } from './health.js';\nexport const a = computeHealth;\n"],
    ['an engine imports a root port', 'main/core/vault/x.ts', "import type { Clock } from '../ports.js';\nexport type A = Clock;\n"],
  ])('allows %s', async (_label, file, code) => {
    expect(fenceErrors(await lint(file, code), 'engine-entry')).toEqual([]);
  });
});

describe('no import cycles', () => {
  // The probes lint new text for a file that exists, so the rest of the graph is the repository's own: the
  // chat engine imports the agent engine, services.ts imports the chat engine.
  it.each([
    ['a lower engine imports a higher one back', 'main/core/agent/index.ts', "import { ChatRunner } from '../chat/index.js';\nexport const a = ChatRunner;\n"],
    ['the cycle is type-only', 'main/core/agent/index.ts', "import type { ChatRunner } from '../chat/index.js';\nexport type A = ChatRunner;\n"],
    ['the cycle runs through a re-export', 'main/core/agent/index.ts', "export type { ChatRunner } from '../chat/index.js';\n"],
    ['an engine imports the composition root', 'main/core/chat/index.ts', "import type { Services } from '../services.js';\nexport type A = Services;\n"],
  ])('fails lint when %s', async (_label, file, code) => {
    expect(fenceErrors(await lint(file, code), 'no-cycle')).not.toEqual([]);
  });

  it.each([
    ['a higher engine imports a lower one', 'main/core/chat/index.ts', "import { runQueryLoop } from '../agent/index.js';\nexport const a = runQueryLoop;\n"],
    ['a cycle is broken by import() at run time', 'main/core/agent/index.ts', "export const load = () => import('../chat/index.js');\n"],
  ])('allows %s', async (_label, file, code) => {
    expect(fenceErrors(await lint(file, code), 'no-cycle')).toEqual([]);
  });
});

describe('one error rule: engines throw AppFailure, Result values only at the IPC boundary', () => {
  it.each([
    ['an engine imports Result', 'main/core/vault/x.ts', "import type { Result } from '../../../common/result.js';\nexport type A = Result<string>;\n"],
    ['an engine returns err()', 'main/core/vault/x.ts', "import { err } from '../../../common/result.js';\nexport const a = () => err('not_found', 'gone');\n"],
    ['an engine returns an {ok} object of its own', 'main/core/chat/x.ts', "export const a = (n: number) => (n > 0 ? { ok: true, value: n } : { ok: false, reason: 'negative' });\n"],
    ['an engine declares an {ok} union type', 'main/core/team-sync/x.ts', "export type Opened = { ok: true; repo: string } | { ok: false; message: string };\n"],
    ['the composition root imports ok', 'main/core/x.ts', "import { ok } from '../../common/result.js';\nexport const a = ok(1);\n"],
  ])('fails lint when %s', async (_label, file, code) => {
    expect(fenceErrors(await lint(file, code), 'error-rule')).not.toEqual([]);
  });

  it.each([
    ['an engine throws AppFailure', 'main/core/vault/x.ts', "import { AppFailure } from '../../../common/result.js';\nexport const a = () => {\n  throw new AppFailure('not_found', 'gone');\n};\n"],
    ['an IPC handler answers Result', 'main/core/ipc/x.ts', "import { ok, type Result } from '../../../common/result.js';\nexport const a = (): Result<number> => ok(1);\n"],
    ['a listed outcome union', 'main/core/team-sync/repo-detect.ts', "export type RepoDetection = { ok: true; repo: string } | { ok: false; message: string };\n"],
    ['an ok flag that is not a literal', 'main/core/vault/x.ts', "export const a = (n: number) => ({ ok: n > 0 });\n"],
  ])('allows %s', async (_label, file, code) => {
    expect(fenceErrors(await lint(file, code), 'error-rule')).toEqual([]);
  });
});

describe('the CLI builds engines only through services.ts', () => {
  it.each([
    ['a command news an engine', 'main/cli/commands/x.ts', "import { SessionNotesUpdater } from '../../core/session-memory/index.js';\nexport const a = (o: never) => new SessionNotesUpdater(o);\n"],
    ['a command calls a static factory', 'main/cli/commands/x.ts', "import { SecretAllowanceStore } from '../../core/secrets/index.js';\nexport const a = SecretAllowanceStore.forVault('/v');\n"],
    ['a CLI file creates an agent', 'main/cli/x.ts', "import { ConversationAgent } from '../core/chat/index.js';\nexport const a = (o: never) => ConversationAgent.create(o);\n"],
    ['a CLI file news a store under another name', 'main/cli/x.ts', "import { MemoryCredentialStore as Store } from '../core/auth/index.js';\nexport const a = new Store();\n"],
  ])('fails lint when %s', async (_label, file, code) => {
    expect(fenceErrors(await lint(file, code), 'builds-through-services')).not.toEqual([]);
  });

  it.each([
    ['a command calls the composition root', 'main/cli/x.ts', "import { createVaultEngines } from '../core/services.js';\nexport const a = createVaultEngines;\n"],
    ['a command calls an engine function', 'main/cli/commands/x.ts', "import { scanPaths } from '../../core/secrets/index.js';\nexport const a = () => scanPaths([], {});\n"],
    ['a command resolves a value object', 'main/cli/commands/x.ts', "import { ProjectPaths } from '../../core/paths/index.js';\nexport const a = () => ProjectPaths.resolve('/v', '/p');\n"],
    ['a command news its own error', 'main/cli/commands/x.ts', "import { UsageError } from '../cli-io.js';\nexport const a = new UsageError('no');\n"],
    ['the host news an engine (it is not the CLI)', 'main/host/x.ts', "import { MemoryCredentialStore } from '../core/auth/index.js';\nexport const a = new MemoryCredentialStore();\n"],
  ])('allows %s', async (_label, file, code) => {
    expect(fenceErrors(await lint(file, code), 'builds-through-services')).toEqual([]);
  });
});
