import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * Four projects: `node` (common, main, server, CLI — real temp folders, real servers on loopback),
 * `renderer` (jsdom), `e2e` (Chromium driving `strata host`) — `npm test` runs these three — and
 * `screenshots` (`npm run screenshots`: the docs/ images, rewritten on purpose).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/renderer/**', 'test/e2e/**', 'test/packaging/**'],
          setupFiles: ['test/support/fail-on-console-error.ts'],
          globalSetup: ['test/support/postgres-global-setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['test/renderer/**/*.test.{ts,tsx}'],
          // As the engine tests: an unexpected console.error or unhandled rejection fails the test.
          setupFiles: ['test/support/fail-on-console-error.ts', 'test/support/fail-on-unhandled-rejection.ts'],
          testTimeout: 10_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts', 'test/packaging/**/*.test.ts'],
          globalSetup: ['test/e2e/build-global-setup.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The chat's docs/ screenshot generator. `npm run screenshots` runs it with the e2e tests and
        // STRATA_DOCS_SCREENSHOTS=1, so their shots land in docs/ too; under `npm test` e2e shots go to test-results/.
        test: {
          name: 'screenshots',
          environment: 'node',
          include: ['test/e2e/**/*.shots.ts'],
          globalSetup: ['test/e2e/build-global-setup.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
