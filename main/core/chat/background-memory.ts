import type { HookContext } from '../agent/index.js';
import { FileCursorStore, MemoryExtractor } from '../auto-memory/index.js';
import { liveMessages } from '../session-memory/index.js';
import type { TranscriptRecord } from '../transcripts/index.js';
import { projectSwitches, type ConversationAgent } from './agent-setup.js';
import type { MemoryChanges } from './memory-changes.js';
import type { ConversationHost } from './conversation-host.js';

/** What the background memory work needs of its conversation. */
export interface BackgroundMemoryHost extends ConversationHost {
  changes: MemoryChanges;
  /** False for a session that runs without the memory engines (`strata ask --no-memory`, incognito). */
  memory(): boolean;
  /** The agent of the newest turn, which an extraction started earlier forks from. */
  agent(): ConversationAgent | null;
  /** The model-visible records as they are now. */
  records(): TranscriptRecord[];
  /** The notes file changed: the notes panel and the conversation list follow. */
  notesUpdated(): Promise<void>;
}

/**
 * The memory engines hung on the query loop's hooks (docs/memory.md#session-notes, #auto-memory):
 * the session notes after each model response, extraction at the end of each turn — both in the
 * background, awaited only by `idle()`, and a failure of either is logged, never the turn's.
 */
export class BackgroundMemory {
  private extractor: MemoryExtractor | null = null;
  private readonly work = new Set<Promise<unknown>>();

  constructor(private readonly host: BackgroundMemoryHost) {}

  afterModelResponse(agent: ConversationAgent, ctx: HookContext): void {
    const { host } = this;
    if (!host.memory()) return;
    const notes = host.engines.notes;
    // The conversation at this response: the loop keeps appending to ctx.records while the update runs,
    // and what comes later must neither feed the decision and the fork nor count as covered.
    const records = [...ctx.records];
    const work = notes
      .afterModelResponse({
        sessionId: host.sessionId,
        projectDir: host.project,
        records,
        fork: agent.notesFork(() => records, () => notes.notesPath(host.project, host.sessionId)),
        isFork: ctx.isFork,
      })
      .then(({ outcome }) => (outcome?.updated ? host.notesUpdated() : undefined));
    this.track(work);
  }

  afterTurn(agent: ConversationAgent, ctx: HookContext): void {
    const { host } = this;
    if (!host.memory() || !agent.switches.autoMemory || !agent.switches.extraction) return;
    if (projectSwitches(host.env.settings(), host.project).memoryPaused) return;
    this.extractor ??= new MemoryExtractor({
      memoryDir: agent.paths.memoryDir,
      projectDir: agent.paths.projectDir,
      guard: agent.guard,
      // The fork of the conversation as it is when the extraction runs.
      fork: (request) => (host.agent() ?? agent).extractorFork(host.changes, (cards) => void host.addItems(cards), () => host.records())(request),
      // The engines' shared store: the notes updater writes the same session file.
      cursors: new FileCursorStore(host.engines.sessionState),
      config: () => host.env.config().autoMemory,
      switches: () => projectSwitches(host.env.settings(), host.project),
      logger: host.logger,
      clock: host.clock,
      memoryShape: () => host.env.settings().memoryShape,
    });
    this.track(this.extractor.onTurnEnd({ sessionId: host.sessionId, messages: liveMessages(ctx.records) }));
  }

  /** Work the session waits for before it is idle; its failure is logged. */
  track(work: Promise<unknown>): void {
    const guarded = work.catch((error: unknown) => this.host.logger.warn('memory engine failed', { sessionId: this.host.sessionId, error: (error as Error).message }));
    this.work.add(guarded);
    void guarded.finally(() => this.work.delete(guarded));
  }

  /** Resolves when all of it is over, including work started meanwhile. */
  async idle(): Promise<void> {
    while (this.work.size > 0) await Promise.allSettled([...this.work]);
  }
}
