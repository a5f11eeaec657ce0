import path from 'node:path';
import { KeyedSequencer } from '../../../common/async/sequencer.js';
import { currentConfig, type LiveConfig, type MemoryConfig } from '../../../common/config.js';
import { writeFileAtomic } from '../fs/index.js';
import { contextTokens } from '../llm/index.js';
import type { Clock, Logger } from '../ports.js';
import type { TranscriptRecord } from '../transcripts/index.js';
import { lastAssistantHasToolUse, liveMessages } from './conversation.js';
import type { CanUseTool, ForkResult, ForkRunner } from '../agent/index.js';
import { ensureNotesFile, notesPathFor, readNotes, realProjectPath } from './notes-file.js';
import { SessionMemoryStateStore, type SessionMemoryState } from './state-store.js';
import { restoreStructure } from './structure.js';
import { loadCustomization } from './template.js';
import { decideUpdate, type TriggerDecision } from './trigger.js';
import { buildUpdatePrompt } from './update-prompt.js';

export interface SessionNotesDeps {
  vaultRoot: string;
  /** The numbers, or a getter so a settings change applies from the next response on. */
  config: LiveConfig<MemoryConfig['sessionMemory']>;
  clock: Clock;
  logger: Logger;
  /** Shared with compaction so both see one state; built from `vaultRoot` when omitted. */
  stateStore?: SessionMemoryStateStore;
  /** Told when an update starts and ends (the side panel shows "updating"). */
  onUpdating?: (event: { sessionId: string; notesPath: string; updating: boolean }) => void;
}

/** One conversation at the moment of a model response. */
export interface NotesUpdateContext {
  sessionId: string;
  /** The opened folder (its real path names the notes folder, docs/memory.md#where-things-live). */
  projectDir: string;
  /**
   * The transcript's records; only those after the last compact boundary are considered. Copied when
   * the update is asked for; `fork` should send the same copy as its prefix.
   */
  records: readonly TranscriptRecord[];
  /** The fork runner bound to this conversation's exact prefix. */
  fork: ForkRunner;
  signal?: AbortSignal;
}

export interface NotesUpdateOutcome extends ForkResult {
  path: string;
  /** Whether the notes file's text changed during the update. */
  updated: boolean;
}

/**
 * Keeps a session's notes current through a forked agent (docs/memory.md#session-notes). Updates of one session run one
 * at a time; the cursors and the running-update marker live in the session's state file.
 */
export class SessionNotesUpdater {
  readonly store: SessionMemoryStateStore;
  private readonly updates = new KeyedSequencer();
  private readonly running = new Set<string>();

  constructor(private readonly deps: SessionNotesDeps) {
    this.store = deps.stateStore ?? new SessionMemoryStateStore(deps.vaultRoot);
  }

  async notesPath(projectDir: string, sessionId: string): Promise<string> {
    return notesPathFor(this.deps.vaultRoot, await realProjectPath(projectDir), sessionId);
  }

  isUpdating(sessionId: string): boolean {
    return this.running.has(sessionId);
  }

  /**
   * The post-response hook: decides by the trigger rule and, when it fires, runs one update. Never
   * throws; a failed update is logged and leaves `tokensAtLastUpdate` where it was.
   */
  afterModelResponse(hook: NotesUpdateContext & { isFork: boolean }): Promise<{ decision: TriggerDecision; outcome: NotesUpdateOutcome | null }> {
    // The conversation as it is now: it keeps growing while this waits its turn and while the fork runs.
    const ctx = frozen(hook);
    return this.updates.run(ctx.sessionId, async () => {
      const messages = liveMessages(ctx.records);
      const state = await this.store.read(ctx.sessionId);
      const decision = decideUpdate(messages, state, currentConfig(this.deps.config), { isFork: ctx.isFork });
      if (!decision.update) {
        if (decision.next.initialized !== state.initialized) await this.store.update(ctx.sessionId, (s) => ({ ...s, initialized: true }));
        return { decision, outcome: null };
      }
      try {
        return { decision, outcome: await this.run(ctx, decision.next) };
      } catch (error) {
        this.deps.logger.warn('session notes update failed', { sessionId: ctx.sessionId, error: (error as Error).message });
        return { decision, outcome: null };
      }
    });
  }

  /** One update now, whatever the thresholds (`strata session-memory`, a manual request). Throws on failure. */
  updateNow(request: NotesUpdateContext): Promise<NotesUpdateOutcome> {
    const ctx = frozen(request);
    return this.updates.run(ctx.sessionId, async () => {
      const messages = liveMessages(ctx.records);
      const last = messages[messages.length - 1];
      const state = await this.store.read(ctx.sessionId);
      return this.run(ctx, { ...state, updateCursorUuid: last?.uuid ?? state.updateCursorUuid });
    });
  }

  /** Resets the "covered up to" cursor after a compaction (docs/memory.md#compaction). */
  async resetLastSummarized(sessionId: string): Promise<void> {
    await this.store.update(sessionId, (s) => ({ ...s, lastSummarizedMessageId: null }));
  }

  /** `ctx.records` is the copy taken when the update was asked for: the decision, the fork and both cursors see only it. */
  private async run(ctx: NotesUpdateContext, started: Pick<SessionMemoryState, 'initialized' | 'updateCursorUuid'>): Promise<NotesUpdateOutcome> {
    const notesPath = await this.notesPath(ctx.projectDir, ctx.sessionId);
    // The cursor moves and the marker is set when the update starts (docs/memory.md#session-notes).
    await this.store.update(ctx.sessionId, (s) => ({
      ...s,
      initialized: started.initialized,
      updateCursorUuid: started.updateCursorUuid,
      updateStartedAt: this.deps.clock.now(),
    }));
    this.running.add(ctx.sessionId);
    this.deps.onUpdating?.({ sessionId: ctx.sessionId, notesPath, updating: true });
    let succeeded = false;
    try {
      const custom = await loadCustomization(this.deps.vaultRoot, this.deps.logger);
      await ensureNotesFile(notesPath, custom.template);
      const original = (await readNotes(notesPath)) ?? custom.template;
      let notes = original;
      const restored = restoreStructure(notes, custom.template);
      if (restored !== notes) {
        await writeFileAtomic(notesPath, restored, { mode: 0o600, dirMode: 0o700 });
        notes = restored;
      }
      const prompt = buildUpdatePrompt(custom.prompt, notes, notesPath, currentConfig(this.deps.config));
      const result = await ctx.fork({
        promptMessages: [{ role: 'user', content: prompt }],
        canUseTool: onlyEditOn(notesPath),
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
      const after = await readNotes(notesPath);
      const messages = liveMessages(ctx.records);
      const last = messages[messages.length - 1];
      await this.store.update(ctx.sessionId, (s) => ({
        ...s,
        tokensAtLastUpdate: messages.length > 0 ? contextTokens(messages) : 0,
        // Only at a pause: a cut between a tool_use and its result would break the API pairing (docs/memory.md#session-notes).
        lastSummarizedMessageId: last && !lastAssistantHasToolUse(messages) ? last.uuid : s.lastSummarizedMessageId,
        updateStartedAt: null,
      }));
      succeeded = true;
      return { path: notesPath, updated: after !== original, usage: result.usage, cacheHitRatio: result.cacheHitRatio };
    } finally {
      if (!succeeded) await this.store.update(ctx.sessionId, (s) => ({ ...s, updateStartedAt: null })).catch(() => undefined);
      this.running.delete(ctx.sessionId);
      this.deps.onUpdating?.({ sessionId: ctx.sessionId, notesPath, updating: false });
    }
  }

  /** Runs `task` between this session's updates, never during one (the user's own edits of the notes). */
  runExclusive<T>(sessionId: string, task: () => Promise<T>): Promise<T> {
    return this.updates.run(sessionId, task);
  }
}

/** A copy of the records taken when the hook fired, so later messages are never marked as covered. */
function frozen<T extends NotesUpdateContext>(ctx: T): T {
  return { ...ctx, records: Object.freeze([...ctx.records]) };
}

/** The updater's permission check (docs/memory.md#session-notes): Edit on the notes file and nothing else. */
export function onlyEditOn(notesPath: string): CanUseTool {
  const target = path.resolve(notesPath);
  return async (toolName, input) => {
    const filePath = (input as { file_path?: unknown } | null)?.file_path;
    if (toolName === 'Edit' && typeof filePath === 'string' && path.isAbsolute(filePath) && path.resolve(filePath) === target) {
      return { allow: true };
    }
    return { allow: false, message: `only Edit on ${notesPath} is allowed` };
  };
}
