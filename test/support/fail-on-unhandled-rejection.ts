import { afterEach, beforeEach } from 'vitest';

/**
 * "Fail on unexpected errors" (STYLE.md), for promises: a rejection nobody handled during a test fails
 * that test by name (vitest alone reports it for the whole run, after the fact). Installed with
 * fail-on-console-error.ts for the renderer, where a forgotten `.catch` in a component hides a failure
 * the user would see as a frozen screen.
 */
let rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);

beforeEach(() => {
  rejections = [];
  process.on('unhandledRejection', onRejection);
});

afterEach(async () => {
  // Node reports an unhandled rejection after the microtasks of its turn: let that turn end first.
  await new Promise((resolve) => setTimeout(resolve, 0));
  process.off('unhandledRejection', onRejection);
  if (rejections.length > 0) {
    const described = rejections.map((r) => (r instanceof Error ? (r.stack ?? r.message) : String(r)));
    throw new Error(`Unhandled promise rejection during the test:\n${described.join('\n')}`);
  }
});
