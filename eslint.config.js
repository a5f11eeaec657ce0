// Lint, and the fences between environments (DESIGN.md "Rules of the house", STYLE.md).
// A wrong import fails `npm test`; test/lint/fences.test.ts proves each fence bites.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';
import globals from 'globals';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const nodeOnlyPackages = [
  'electron', 'chokidar', 'keytar', '@anthropic-ai/sdk', 'ws', 'better-sqlite3', 'pg', 'fastify',
  '@node-oauth/oauth2-server', 'minisearch', 'esbuild', 'playwright-core',
];

const fenceRules = {
  electronOutsideShell: {
    paths: [{ name: 'electron', message: 'main/core runs under plain Node: only main/electron and preload import electron.' }],
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'test-results/**', '.bench-tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  // Everything but the Electron shell and the preload: no electron.
  {
    files: ['common/**', 'main/core/**', 'main/host/**', 'main/cli/**', 'server/**', 'renderer/**'],
    rules: { 'no-restricted-imports': ['error', fenceRules.electronOutsideShell] },
  },
  // common/ runs in all three environments: no Node built-ins, no Node-only packages.
  {
    files: ['common/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...nodeBuiltins, ...nodeOnlyPackages].map((name) => ({ name, message: 'common/ runs in the renderer too.' })),
        },
      ],
    },
  },
  // The renderer never sees Node; only the store folder imports zustand.
  {
    files: ['renderer/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...[...nodeBuiltins, ...nodeOnlyPackages].map((name) => ({
              name,
              message: 'The renderer talks to main only through the contract (renderer/src/bridge).',
            })),
            { name: 'zustand', message: 'Only renderer/src/store imports zustand.' },
          ],
          patterns: [
            { group: ['zustand/*'], message: 'Only renderer/src/store imports zustand.' },
            { group: ['**/main/**', '**/server/**', '**/preload/**'], message: 'The renderer imports only common/ and its own files.' },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/src/store/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...nodeBuiltins, ...nodeOnlyPackages].map((name) => ({ name, message: 'The renderer never sees Node.' })),
        },
      ],
    },
  },
  // Raw ipcMain / ipcRenderer only in the two files that wrap them.
  {
    files: ['main/electron/**', 'preload/**'],
    ignores: ['main/electron/ipc-router.ts', 'preload/index.ts', 'main/electron/main.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', importNames: ['ipcMain', 'ipcRenderer'], message: 'Use the IPC router / the preload bridge.' },
          ],
        },
      ],
    },
  },
  {
    files: ['main/electron/main.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', importNames: ['ipcRenderer'], message: 'main never uses ipcRenderer.' }] },
      ],
      // main.ts hands ipcMain to the router and may not call it itself.
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[object.name='ipcMain']", message: 'Only main/electron/ipc-router.ts touches ipcMain.' },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['test/**', 'bench/**', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
);
