import { expect } from 'vitest';
import type { Logger } from '../../main/core/ports.js';

/**
 * A logger for engines under test: warnings are recorded, errors are recorded and fail the test at
 * `assertNoErrors()` unless the test expected them.
 */
export function testLogger() {
  const entries: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  const logger: Logger = {
    info: (message, fields) => entries.push({ level: 'info', message, fields }),
    warn: (message, fields) => entries.push({ level: 'warn', message, fields }),
    error: (message, fields) => entries.push({ level: 'error', message, fields }),
  };
  return {
    logger,
    entries,
    assertNoErrors() {
      expect(entries.filter((e) => e.level === 'error')).toEqual([]);
    },
  };
}
