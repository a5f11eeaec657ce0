import { randomUUID } from 'node:crypto';
import type { Clock } from '../ports.js';
import type { ApiMessage, MessageRecord, TranscriptRecord } from '../transcripts/index.js';

/**
 * Builds the run's records in Claude Code's shape (uuid/parentUuid chain, sessionId, cwd,
 * timestamp), each parented on the one before, starting after the history's last record.
 */
export class RecordBuilder {
  private parent: string | null;

  constructor(
    history: TranscriptRecord[],
    private readonly session: { sessionId: string; cwd: string },
    private readonly clock: Clock,
    private readonly sidechain: boolean,
  ) {
    this.parent = [...history].reverse().find((r) => typeof r.uuid === 'string')?.uuid ?? null;
  }

  make(type: 'user' | 'assistant', message: ApiMessage): MessageRecord {
    const record: MessageRecord = {
      type,
      uuid: randomUUID(),
      parentUuid: this.parent,
      sessionId: this.session.sessionId,
      cwd: this.session.cwd,
      timestamp: new Date(this.clock.now()).toISOString(),
      ...(this.sidechain ? { isSidechain: true } : {}),
      message,
    };
    this.parent = record.uuid;
    return record;
  }
}
