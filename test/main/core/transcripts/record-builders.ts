import { randomUUID } from 'node:crypto';
import type { MessageRecord } from '../../../../main/core/transcripts/records.js';

/** Records shaped like Claude Code's, with a clock the test controls. */
export function recordMaker(sessionId: string, startMs = Date.UTC(2026, 0, 5, 9, 0, 0)) {
  let parentUuid: string | null = null;
  let t = startMs;
  const next = (type: 'user' | 'assistant', content: MessageRecord['message']['content'], extra: Partial<MessageRecord> = {}) => {
    const record: MessageRecord = {
      uuid: randomUUID(),
      parentUuid,
      sessionId,
      timestamp: new Date((t += 1000)).toISOString(),
      cwd: '/home/u/proj',
      type,
      message: type === 'assistant' ? { role: 'assistant', id: `msg_${t}`, content } : { role: 'user', content },
      ...extra,
    };
    parentUuid = record.uuid;
    return record;
  };
  return {
    user: (text: string, extra?: Partial<MessageRecord>) => next('user', text, extra),
    assistant: (text: string) => next('assistant', [{ type: 'text', text }]),
    get lastMs() {
      return t;
    },
  };
}
