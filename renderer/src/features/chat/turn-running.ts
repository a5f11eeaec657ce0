import type { RunPhase } from '../../../../common/domain/chat';

/** A turn is running while the answer streams, its tools run or a write waits for the user: Stop can end it. */
export const isTurnRunning = (phase: RunPhase | undefined): boolean =>
  phase === 'streaming' || phase === 'running-tools' || phase === 'waiting-permission';
