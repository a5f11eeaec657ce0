import type { ChatError, ChatItem, RunPhase } from '../../../common/domain/chat.js';
import type { MemoryConfig } from '../../../common/config.js';
import type { AgentEvent } from '../agent/index.js';
import type { TranscriptRecord } from '../transcripts/index.js';
import type { ChatEvents } from './chat-events.js';
import { recordsToItems, toolStatus } from './records-to-items.js';
import { contextMeter } from './session-catalog.js';

/** What the live view needs of its conversation. */
export interface LiveTurnHost {
  project: string;
  sessionId: string;
  events: ChatEvents;
  config(): MemoryConfig;
  /** The model-visible records, for the context meter (empty before the history is read). */
  contextRecords(): TranscriptRecord[];
}

/**
 * What every window showing the conversation is told while it runs (docs/architecture.md#events): the
 * phase, the error that ended the turn, the running turn's items as they grow and the streaming text.
 */
export class LiveTurn {
  private phase: RunPhase = 'idle';
  private error: ChatError | null = null;
  private streamingId: string | null = null;
  /** The line shown while the turn waits on slow work before its first token (docs/memory.md#recall). */
  private progress: string | null = null;
  /** The running turn's message records, which its items are made from. */
  private turn: TranscriptRecord[] = [];

  constructor(private readonly host: LiveTurnHost) {}

  /** What a view opened now must show besides the transcript. */
  get state(): { phase: RunPhase; error: ChatError | null; progress?: string } {
    return { phase: this.phase, error: this.error, ...(this.progress ? { progress: this.progress } : {}) };
  }

  /** A turn starts: no error yet, no records, streaming. */
  begin(): void {
    this.error = null;
    this.turn = [];
    this.setPhase('streaming');
  }

  /** The turn is over: the last update says how it ended. */
  end(): void {
    this.streamingId = null;
    this.progress = null;
    this.setPhase(this.error ? 'error' : 'idle');
  }

  /** A message record of the running turn became final. */
  add(record: TranscriptRecord): void {
    this.turn.push(record);
  }

  /** The answer stopped streaming (the loop returned). */
  streamEnded(): void {
    this.streamingId = null;
  }

  /** The error shows once the turn has ended (the last update of the turn). */
  fail(error: ChatError): void {
    this.error = error;
  }

  /** Shows (or, with null, clears) the progress line of the running turn. */
  setProgress(text: string | null): void {
    if (text === this.progress) return;
    this.progress = text;
    this.emit([]);
  }

  setPhase(phase: RunPhase): void {
    this.phase = phase;
    this.emit([]);
  }

  /** Sends the items of the running turn (cheap: a turn holds a handful of records). */
  publish(final = false): void {
    this.emit(recordsToItems(this.turn, this.host.project, { live: !final }));
  }

  emit(upserts: ChatItem[], reset = false): void {
    this.host.events.update.fire({
      sessionId: this.host.sessionId,
      upserts,
      ...(reset ? { reset } : {}),
      phase: this.phase,
      error: this.error,
      ...(this.progress ? { progress: this.progress } : {}),
      context: contextMeter(this.host.contextRecords(), this.host.config()),
    });
  }

  onAgentEvent(event: AgentEvent): void {
    switch (event.type) {
      case 'message_start':
        this.streamingId = event.id;
        if (this.phase !== 'streaming') this.setPhase('streaming');
        break;
      case 'text':
        if (this.streamingId) this.host.events.stream.fire({ sessionId: this.host.sessionId, itemId: this.streamingId, text: event.text });
        break;
      case 'tool_start':
        if (this.phase !== 'running-tools') this.setPhase('running-tools');
        break;
      case 'tool_end': {
        const item = recordsToItems(this.turn, this.host.project, { live: true }).find((i) => i.id === event.id);
        if (item?.kind === 'tool') this.emit([{ ...item, status: toolStatus(event.isError, event.content), result: event.content }]);
        break;
      }
      default:
        break;
    }
  }
}
