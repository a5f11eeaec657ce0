import { autoCompactThreshold, currentConfig, type LiveConfig, type MemoryConfig } from '../../../common/config.js';

export interface ContextStatus {
  used: number;
  /** Auto-compaction threshold (docs/memory.md#compaction). */
  threshold: number;
  /** `warningBuffer` tokens below the threshold: the context meter turns to a warning from here. */
  warningAt: number;
  warning: boolean;
  /** Auto-compaction is due and the session's breaker has not tripped. */
  shouldAutoCompact: boolean;
  /** Three auto-compaction failures in a row: no more retries this session. */
  tripped: boolean;
}

/**
 * docs/memory.md#compaction's threshold, warning and breaker, per session. Failures count only while consecutive: a
 * success resets them.
 */
export class CompactionGuard {
  private readonly failures = new Map<string, number>();

  constructor(private readonly live: LiveConfig<MemoryConfig['compaction']>) {}

  private get config(): MemoryConfig['compaction'] {
    return currentConfig(this.live);
  }

  get threshold(): number {
    return autoCompactThreshold(this.config);
  }

  status(sessionId: string, used: number): ContextStatus {
    const threshold = this.threshold;
    const warningAt = threshold - this.config.warningBuffer;
    const tripped = this.isTripped(sessionId);
    return { used, threshold, warningAt, warning: used >= warningAt, shouldAutoCompact: used >= threshold && !tripped, tripped };
  }

  isTripped(sessionId: string): boolean {
    return (this.failures.get(sessionId) ?? 0) >= this.config.maxConsecutiveFailures;
  }

  recordSuccess(sessionId: string): void {
    this.failures.delete(sessionId);
  }

  /** Returns the count of failures in a row. */
  recordFailure(sessionId: string): number {
    const n = (this.failures.get(sessionId) ?? 0) + 1;
    this.failures.set(sessionId, n);
    return n;
  }
}
