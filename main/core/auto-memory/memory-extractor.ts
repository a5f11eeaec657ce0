import path from 'node:path';
import { currentConfig, type LiveConfig, type MemoryConfig } from '../../../common/config.js';
import type { MemoryShape } from '../../../common/memory-file/index.js';
import type { Clock, Logger } from '../ports.js';
import type { ContentBlock, MessageRecord, Usage } from '../transcripts/index.js';
import type { CursorStore } from './extraction-cursor.js';
import { extractorPrompt } from './extractor-prompt.js';
import { createExtractorCanUseTool, writeTargetOf, type CanUseTool } from './extractor-permissions.js';
import { formatManifest, scanMemoryFiles } from './memory-files.js';
import type { MemoryWriteGuard } from './write-guard.js';

/** What the extractor asks of the fork runner (the agent engine's `runForkedAgent` behind an adapter). */
export interface ForkRequest {
  /** The parent's messages the fork sees (its cache-safe prefix), up to the last covered message. */
  contextMessages: MessageRecord[];
  /** Appended after them: the extractor's instruction as one user message. */
  promptMessages: { role: 'user'; content: string }[];
  canUseTool: CanUseTool;
  maxTurns: number;
  signal?: AbortSignal;
}

export interface ForkResult {
  usage: Partial<Usage> | null;
  cacheHitRatio: number | null;
  /** Files the fork wrote or deleted (real paths). */
  wrotePaths?: string[];
}

export type ForkRunner = (request: ForkRequest) => Promise<ForkResult>;

/** The end-of-turn call from the main agent's loop. */
export interface TurnEndContext {
  sessionId: string;
  /** The conversation's model-visible messages, in order (after any compaction). */
  messages: MessageRecord[];
  /** Set for subagents and forks: the extractor runs for the main agent only. */
  agentId?: string;
}

/** Why nothing ran, or what did. */
export type ExtractionOutcome =
  | { kind: 'ran'; covered: number; wrotePaths: string[]; usage: Partial<Usage> | null; cacheHitRatio: number | null }
  | { kind: 'skipped'; reason: 'disabled' | 'subagent' | 'pending-tool-call' | 'no-new-messages' | 'throttled' | 'main-agent-wrote' }
  | { kind: 'stashed' }
  | { kind: 'failed'; message: string };

/** Per-project switches (common/domain/settings.ts); read at each call so a change applies at once. */
export interface ExtractorSwitches {
  autoMemory: boolean;
  extraction: boolean;
}

export interface MemoryExtractorOptions {
  memoryDir: string;
  projectDir: string;
  guard: MemoryWriteGuard;
  fork: ForkRunner;
  cursors: CursorStore;
  /** The numbers, or a getter so a settings change applies from the next turn on. */
  config: LiveConfig<MemoryConfig['autoMemory']>;
  switches: () => ExtractorSwitches;
  logger: Logger;
  clock: Clock;
  /** Told about every finished run (the chat's memory cards). */
  onRun?: (sessionId: string, outcome: ExtractionOutcome) => void;
  /** The memory shape chosen in Settings, read at each run (default the 2.1.88 shape). */
  memoryShape?: () => MemoryShape;
}

const isToolUse = (b: ContentBlock): b is Extract<ContentBlock, { type: 'tool_use' }> => b.type === 'tool_use';
const blocksOf = (m: MessageRecord): ContentBlock[] => (typeof m.message.content === 'string' ? [] : m.message.content);

/**
 * The background memory extractor (docs/memory.md#auto-memory, docs/memory.md#extraction): at the end of each complete main-agent turn,
 * every N turns, one run at a time with a single stashed trailing run; skipped with the cursor advanced
 * when the main agent wrote memory itself; the cursor moves only on success.
 */
export class MemoryExtractor {
  private running: Promise<void> | null = null;
  private stash: TurnEndContext | null = null;
  private stashWaiters: ((o: ExtractionOutcome) => void)[] = [];
  private readonly turnsSince = new Map<string, number>();

  constructor(private readonly options: MemoryExtractorOptions) {}

  /** Call at the end of each turn; resolves when this call's work (or its stashed run) is over. */
  onTurnEnd(context: TurnEndContext): Promise<ExtractionOutcome> {
    if (context.agentId) return Promise.resolve({ kind: 'skipped', reason: 'subagent' });
    const switches = this.options.switches();
    if (!switches.autoMemory || !switches.extraction) return Promise.resolve({ kind: 'skipped', reason: 'disabled' });
    const last = context.messages.at(-1);
    if (last?.message.role === 'assistant' && blocksOf(last).some(isToolUse)) {
      return Promise.resolve({ kind: 'skipped', reason: 'pending-tool-call' });
    }
    if (this.running) {
      // Latest wins: an older stash is superseded and told so.
      for (const resolve of this.stashWaiters.splice(0)) resolve({ kind: 'stashed' });
      this.stash = context;
      return new Promise((resolve) => this.stashWaiters.push(resolve));
    }
    return this.start(context, false);
  }

  /** Resolves when no run is in flight and no stash is waiting (the CLI's ≤60 s drain, shutdown). */
  async drain(): Promise<void> {
    while (this.running) await this.running;
  }

  /**
   * One forced pass over every message after the cursor (the `strata extract` command): no throttle and
   * no skip for the main agent's own memory writes; the switches are the caller's business.
   */
  runOnce(context: TurnEndContext): Promise<ExtractionOutcome> {
    return this.start(context, true, true);
  }

  private start(context: TurnEndContext, trailing: boolean, forced = false): Promise<ExtractionOutcome> {
    let outcome: ExtractionOutcome = { kind: 'failed', message: 'not run' };
    const run = (async () => {
      try {
        outcome = await this.run(context, trailing, forced);
      } catch (error) {
        outcome = { kind: 'failed', message: (error as Error).message };
        this.options.logger.warn('memory extraction failed', { sessionId: context.sessionId, error: (error as Error).message });
      }
      this.options.onRun?.(context.sessionId, outcome);
    })();
    this.running = run.then(() => this.afterRun());
    return run.then(() => outcome);
  }

  private afterRun(): Promise<void> | void {
    this.running = null;
    const next = this.stash;
    if (!next) return;
    this.stash = null;
    const waiters = this.stashWaiters.splice(0);
    // The trailing run skips the throttle and counts only messages after the cursor just moved.
    const promise = this.start(next, true);
    void promise.then((o) => waiters.forEach((resolve) => resolve(o)));
    return this.running ?? undefined;
  }

  private async run(context: TurnEndContext, trailing: boolean, forced: boolean): Promise<ExtractionOutcome> {
    const { sessionId, messages } = context;
    const { cursors, memoryDir } = this.options;
    const config = currentConfig(this.options.config);
    const cursor = await cursors.read(sessionId);
    const at = cursor?.lastMessageUuid ? messages.findIndex((m) => m.uuid === cursor.lastMessageUuid) : -1;
    // Cursor vanished (compaction) or never set: every message counts again (docs/memory.md#auto-memory).
    const fresh = at >= 0 ? messages.slice(at + 1) : messages;
    if (fresh.length === 0) return { kind: 'skipped', reason: 'no-new-messages' };
    const lastUuid = fresh.at(-1)!.uuid;

    if (!forced && this.mainAgentWroteMemory(fresh)) {
      await cursors.write(sessionId, { lastMessageUuid: lastUuid, updatedAt: new Date(this.options.clock.now()).toISOString() });
      this.turnsSince.set(sessionId, 0);
      return { kind: 'skipped', reason: 'main-agent-wrote' };
    }
    if (!trailing) {
      const turns = (this.turnsSince.get(sessionId) ?? 0) + 1;
      if (turns < config.extractEveryTurns) {
        this.turnsSince.set(sessionId, turns);
        return { kind: 'skipped', reason: 'throttled' };
      }
      this.turnsSince.set(sessionId, 0);
    }

    const files = await scanMemoryFiles(memoryDir, { maxBytes: 2048, limit: 200 });
    const prompt = extractorPrompt({
      memoryDir,
      newMessageCount: fresh.length,
      manifest: formatManifest(files),
      maxTurns: config.extractorMaxTurns,
      shape: this.options.memoryShape?.(),
    });
    const canUseTool = createExtractorCanUseTool({ projectDir: this.options.projectDir, guard: this.options.guard });
    const result = await this.options.fork({
      contextMessages: messages.slice(0, messages.indexOf(fresh.at(-1)!) + 1),
      promptMessages: [{ role: 'user', content: prompt }],
      canUseTool,
      maxTurns: config.extractorMaxTurns,
    });
    await cursors.write(sessionId, { lastMessageUuid: lastUuid, updatedAt: new Date(this.options.clock.now()).toISOString() });
    return { kind: 'ran', covered: fresh.length, wrotePaths: result.wrotePaths ?? [], usage: result.usage, cacheHitRatio: result.cacheHitRatio };
  }

  /** A Write/Edit/Delete by the main agent into this memory folder among the new messages (mutual exclusion). */
  private mainAgentWroteMemory(fresh: MessageRecord[]): boolean {
    const dirs = this.options.guard.memoryDirs.map((d) => path.resolve(d));
    return fresh.some(
      (m) =>
        m.message.role === 'assistant' &&
        blocksOf(m).some((b) => {
          if (!isToolUse(b)) return false;
          const target = writeTargetOf(b.name, (b.input ?? {}) as Record<string, unknown>);
          if (target === null) return false;
          const abs = path.resolve(this.options.projectDir, target);
          return dirs.some((d) => abs === d || abs.startsWith(d + path.sep));
        }),
    );
  }
}
