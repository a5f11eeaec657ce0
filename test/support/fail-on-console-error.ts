import { afterEach, beforeEach, vi } from 'vitest';

/**
 * "Fail on unexpected errors" (STYLE.md): anything written to console.error during a test fails it,
 * unless the test said it expects errors with `expectConsoleErrors()`.
 */
let errors: unknown[][] = [];
let expected = false;

export function expectConsoleErrors(): void {
  expected = true;
}

beforeEach(() => {
  errors = [];
  expected = false;
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});

afterEach(() => {
  vi.mocked(console.error).mockRestore();
  if (!expected && errors.length > 0) {
    throw new Error(`Unexpected console.error during the test:\n${errors.map((e) => e.map(String).join(' ')).join('\n')}`);
  }
});
