import { describe, expect, it, vi } from 'vitest';
import { stderrLogger } from '../../../main/core/ports.js';

describe('the stderr logger', () => {
  it('writes one JSON line an entry, stamped with its time, level first among the fields', () => {
    const lines: string[] = [];
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      const logger = stderrLogger({ now: () => Date.UTC(2026, 11, 3, 19, 50) });
      logger.info('request', { status: 200, ms: 4 });
      logger.warn('slow');
    } finally {
      write.mockRestore();
    }
    expect(lines).toEqual([
      '{"time":"2026-12-03T19:50:00.000Z","level":"info","message":"request","status":200,"ms":4}\n',
      '{"time":"2026-12-03T19:50:00.000Z","level":"warn","message":"slow"}\n',
    ]);
  });
});
