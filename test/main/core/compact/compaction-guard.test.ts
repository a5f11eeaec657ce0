import { describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { CompactionGuard } from '../../../../main/core/compact/index.js';

describe('CompactionGuard (docs/memory.md#compaction)', () => {
  it('compacts at 167,000 of a 200,000 window and warns from 147,000', () => {
    const guard = new CompactionGuard(defaultMemoryConfig.compaction);
    expect(guard.status('s', 146_999)).toMatchObject({ threshold: 167_000, warningAt: 147_000, warning: false, shouldAutoCompact: false });
    expect(guard.status('s', 147_000)).toMatchObject({ warning: true, shouldAutoCompact: false });
    expect(guard.status('s', 167_000)).toMatchObject({ warning: true, shouldAutoCompact: true });
  });

  it('stops auto-compacting a session after three failures in a row, other sessions unaffected', () => {
    const guard = new CompactionGuard(defaultMemoryConfig.compaction);
    guard.recordFailure('s');
    guard.recordFailure('s');
    guard.recordSuccess('s');
    guard.recordFailure('s');
    guard.recordFailure('s');
    expect(guard.status('s', 170_000).shouldAutoCompact).toBe(true);
    expect(guard.recordFailure('s')).toBe(3);
    expect(guard.status('s', 170_000)).toMatchObject({ shouldAutoCompact: false, tripped: true });
    expect(guard.status('other', 170_000).shouldAutoCompact).toBe(true);
  });
});
