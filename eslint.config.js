// Lint, and the fences between environments (docs/architecture.md#what-may-import-what, STYLE.md).
// A wrong import fails `npm test`; test/lint/fences.test.ts proves each fence bites.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';
import globals from 'globals';
import fences from './scripts/lint/fences-plugin.mjs';

const nodeBuiltins = [...new Set(builtinModules.map((m) => m.replace(/^node:/, '')))];
const nodeOnlyPackages = [
  'electron', 'chokidar', 'keytar', '@anthropic-ai/sdk', 'ws', 'better-sqlite3', 'pg', 'fastify',
  '@node-oauth/oauth2-server', 'minisearch', 'esbuild', 'playwright-core',
];

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** A module name and its subpaths: `electron`, `electron/main`, `node:fs`, `fs/promises`, `ws/lib/…`. */
const moduleRegex = (names, { nodePrefix = false } = {}) =>
  `^${nodePrefix ? '(node:)?' : ''}(${names.map(escape).join('|')})(/.*)?$`;

const ELECTRON = moduleRegex(['electron']);
const NODE_ONLY = `${moduleRegex(nodeBuiltins, { nodePrefix: true })}|${moduleRegex(nodeOnlyPackages)}|^node:`;
/** Relative imports of main/electron from main/core, main/host or main/cli (electron one step removed). */
const ELECTRON_SHELL_CODE = '^(\\.\\.?/)+(\\.\\./)*electron(/.*)?$';

/**
 * One fence: what a folder may not import, by static import/export, `import()` or `require()`.
 * Flat config keeps only the last `no-restricted-imports`/`no-restricted-syntax` setting that matches a
 * file, so each block below spells out every fence for its files.
 */
function fence({ regexes = [], importNames = [], syntax = [] }) {
  const rules = {};
  const patterns = [
    ...regexes.map(([regex, message]) => ({ regex, message })),
    ...importNames.map(([names, message]) => ({ regex: ELECTRON, importNames: names, message })),
  ];
  if (patterns.length) rules['no-restricted-imports'] = ['error', { patterns }];
  // esquery takes the regex between slashes; `/` inside is written as \u002F there.
  const dynamic = regexes.flatMap(([regex, message]) => {
    const q = `/${regex.replace(/\//g, '\\u002F')}/`;
    return [
      { selector: `ImportExpression[source.value=${q}]`, message },
      { selector: `CallExpression[callee.name='require'][arguments.0.value=${q}]`, message },
    ];
  });
  if (dynamic.length || syntax.length) rules['no-restricted-syntax'] = ['error', ...dynamic, ...syntax];
  return rules;
}

const noElectron = [ELECTRON, 'main/core runs under plain Node: only main/electron and preload import electron.'];
const noShellCode = [ELECTRON_SHELL_CODE, 'Only main/electron imports main/electron: it is where electron lives.'];
const rendererMsg = 'The renderer talks to main only through the contract (renderer/src/bridge).';
const noNodeInRenderer = [NODE_ONLY, rendererMsg];
const noOtherLayers = ['(^|/)(main|server|preload)(/|$)', 'The renderer imports only common/ and its own files.'];
const noZustand = ['^zustand(/.*)?$', 'Only renderer/src/store imports zustand.'];
const rawIpc = 'Only main/electron/ipc-router.ts and preload/index.ts touch ipcMain / ipcRenderer.';
const noRawIpcSyntax = [
  { selector: 'MemberExpression[property.name=/^ipc(Main|Renderer)$/]', message: rawIpc },
  { selector: 'ObjectPattern > Property[key.name=/^ipc(Main|Renderer)$/]', message: rawIpc },
];

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
  // Node code other than the Electron shell: no electron, and no main/electron code either.
  { files: ['main/core/**', 'main/host/**', 'main/cli/**'], rules: fence({ regexes: [noElectron, noShellCode] }) },
  { files: ['server/**'], rules: fence({ regexes: [noElectron] }) },
  // common/ runs in all three environments: no Node built-ins, no Node-only packages.
  { files: ['common/**'], rules: fence({ regexes: [[NODE_ONLY, 'common/ runs in the renderer too.']] }) },
  // The renderer never sees Node; only the store folder imports zustand.
  { files: ['renderer/**'], rules: fence({ regexes: [noNodeInRenderer, noOtherLayers, noZustand] }) },
  { files: ['renderer/src/store/**'], rules: fence({ regexes: [noNodeInRenderer, noOtherLayers] }) },
  // Raw ipcMain / ipcRenderer only in the two files that wrap them.
  {
    files: ['main/electron/**', 'preload/**'],
    ignores: ['main/electron/ipc-router.ts', 'preload/index.ts', 'main/electron/main.ts'],
    rules: fence({ importNames: [[['ipcMain', 'ipcRenderer'], rawIpc]], syntax: noRawIpcSyntax }),
  },
  {
    files: ['main/electron/main.ts'],
    rules: fence({
      importNames: [[['ipcRenderer'], 'main never uses ipcRenderer.']],
      // main.ts hands ipcMain to the router and may not call it itself.
      syntax: [
        { selector: "MemberExpression[object.name='ipcMain']", message: 'Only main/electron/ipc-router.ts touches ipcMain.' },
        { selector: 'MemberExpression[property.name=/^ipc(Main|Renderer)$/]', message: rawIpc },
      ],
    }),
  },
  // Our own folders: which layer may import which, engines through their index.ts, no import cycles
  // (scripts/lint/fences-plugin.mjs; docs/architecture.md#what-may-import-what).
  {
    files: ['common/**/*.{ts,tsx}', 'main/**/*.{ts,tsx}', 'preload/**/*.ts', 'server/**/*.ts', 'renderer/**/*.{ts,tsx}'],
    plugins: { strata: fences },
    rules: {
      'strata/layers': ['error', {
        layers: [
          { folder: 'common', allow: [], message: 'common/ imports nothing of ours: it runs in every process.' },
          { folder: 'main/core', allow: ['common'], message: 'main/core imports only common/ and itself: electron, host, cli and server sit above it.' },
          { folder: 'server', allow: ['common'], message: 'server/ imports only common/: it runs without the app.' },
          { folder: 'preload', allow: ['common/ipc'], message: 'preload/ imports only common/ipc: the contract is all it bridges.' },
          { folder: 'renderer', allow: ['common'], message: rendererMsg },
        ],
      }],
      'strata/no-cycle': 'error',
    },
  },
  { files: ['main/**/*.{ts,tsx}'], plugins: { strata: fences }, rules: { 'strata/engine-entry': 'error' } },
  { files: ['main/cli/**/*.{ts,tsx}'], plugins: { strata: fences }, rules: { 'strata/builds-through-services': 'error' } },
  // One error rule (docs/architecture.md#errors): the files listed keep outcome unions their callers branch on.
  {
    files: ['main/core/**/*.{ts,tsx}'],
    plugins: { strata: fences },
    rules: {
      'strata/error-rule': ['error', {
        boundary: 'main/core/ipc',
        outcomes: [
          'main/core/auto-memory/write-guard.ts', 'main/core/auto-memory/write-sandbox.ts', 'main/core/llm/llm-client.ts',
          'main/core/compact/compactor.ts', 'main/core/compact/session-memory-compact.ts', 'main/core/team-sync/repo-detect.ts',
          'main/core/tools/write-tools.ts', 'main/core/tools/file-kind.ts', 'main/core/tools/path-scope.ts',
          'main/core/tools/search-tools.ts', 'main/core/tools/memory-tool.ts', 'main/core/consolidation/consolidation-lock.ts',
        ],
      }],
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
