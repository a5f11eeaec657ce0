import { randomUUID } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import type { ChatError, ChatItem, MemoryProposal, PermissionDecision, RunPhase } from '../../../common/domain/chat.js';
import { AppFailure } from '../../../common/result.js';
import { runQueryLoop, type AgentEvent, type HookContext, type QueryStatus, type SummedUsage } from '../agent/index.js';
import { RecordBuilder } from '../agent/index.js';
import { MemoryExtractor, FileCursorStore, MemoryUsageStore, renderRecalled } from '../auto-memory/index.js';
import type { Clock, Logger } from '../ports.js';
import { liveMessages } from '../session-memory/index.js';
import { ReadState } from '../tools/index.js';
import { conversationChain } from '../transcripts/index.js';
import { isMessageRecord, type TranscriptRecord } from '../transcripts/index.js';
import type { TranscriptStore } from '../transcripts/index.js';
import type { ChatEvents } from './chat-events.js';
import { ConversationAgent, projectSwitches, resolveApiKey, sideQueryOf, type AgentEnvironment } from './agent-setup.js';
import { MemoryChanges, type MemoryItem } from './memory-changes.js';
import type { ReviewInbox } from '../auto-memory/index.js';
import type { MemoryEngines } from './memory-engines.js';
import { itemRecord, recordsToItems, toolStatus } from './records-to-items.js';
import { branchCopy, recordsUpTo } from './branches.js';
import { toChatError, WHY_NO_ANSWER } from './chat-errors.js';
import { hasToolResults, isPromptRecord, recentToolNames } from './turn-records.js';
import { PermissionBroker } from './permission-broker.js';
import { ContextInjection } from './context-injection.js';
import { ConversationCompaction } from './conversation-compaction.js';
import { RECALL_FIELD, RecallLedger } from './recall-ledger.js';
import { contextMeter, type SessionCatalog } from './session-catalog.js';

export interface ChatSessionDeps {
  env: AgentEnvironment;
  project: string;
  sessionId: string;
  transcripts: TranscriptStore;
  catalog: SessionCatalog;
  engines: MemoryEngines;
  events: ChatEvents;
  clock: Clock;
  logger: Logger;
  /** Remembers "always allow writes" for the project (settings). */
  allowWritesAlways(project: string): Promise<void>;
  policy?: SessionPolicy;
  /** Review mode's inbox, and who to tell when a proposal arrives. */
  review: { inbox: ReviewInbox; changed(project: string): void };
}

/**
 * How a session runs without a person at the screen (`strata ask`): writes outside the memory folders
 * asked, allowed or denied; the memory engines (recall, notes, extraction) on or off.
 */
export interface SessionPolicy {
  writes: 'ask' | 'allow' | 'deny';
  memory: boolean;
  /** Incognito (docs/memory.md#pause-and-incognito): not even the memory indexes are read, no memory folder is reachable. */
  incognito?: boolean;
}

/** How the last turn ended, for callers that wait for it. */
export interface TurnOutcome {
  status: QueryStatus | 'failed';
  answer: string;
  usage: SummedUsage | null;
  error: ChatError | null;
}

/**
 * One open conversation (docs/architecture.md#the-agent): runs its turns through the query loop, appends every record to the
 * transcript as it becomes final, streams the display model to the UI, asks the user before writes
 * outside the memory folders, and hangs the memory engines on the loop's hooks — session notes after
 * each response, extraction at the end of each turn, recall before each question, compaction when the
 * context passes the threshold (docs/memory.md#session-notes).
 */
export class ChatSession {
  private records: TranscriptRecord[] | null = null;
  private phase: RunPhase = 'idle';
  private error: ChatError | null = null;
  private run: { abort: AbortController; done: Promise<void> } | null = null;
  private streamingId: string | null = null;
  private turn: TranscriptRecord[] = [];
  private readonly permissions: PermissionBroker;
  private readonly readState = new ReadState();
  readonly changes: MemoryChanges;
  private extractor: MemoryExtractor | null = null;
  private agent: ConversationAgent | null = null;
  private readonly recall = new RecallLedger();
  /** Extraction and notes work started by turns, awaited by `idle()` (the CLI waits for them). */
  private readonly background = new Set<Promise<unknown>>();
  private readonly policy: SessionPolicy;
  lastOutcome: TurnOutcome | null = null;
  /** The prompt of a turn that failed before the prompt reached the transcript. */
  private unsentPrompt: string | null = null;
  private readonly context: ContextInjection;
  private readonly compaction: ConversationCompaction;

  constructor(private readonly deps: ChatSessionDeps) {
    this.changes = new MemoryChanges(deps.env.vaultRoot);
    this.policy = deps.policy ?? { writes: 'ask', memory: true };
    this.permissions = new PermissionBroker({
      sessionId: deps.sessionId,
      writes: () => this.policy.writes,
      alwaysAllowed: () => projectSwitches(deps.env.settings(), deps.project).alwaysAllowWrites,
      rememberAlways: () => deps.allowWritesAlways(deps.project),
      announce: (request) => deps.events.permissionRequest.fire(request),
      waiting: (waiting) => (waiting ? this.setPhase('waiting-permission') : this.run && this.setPhase('running-tools')),
    });
    const conversation = {
      project: deps.project,
      sessionId: deps.sessionId,
      engines: deps.engines,
      history: () => this.history(),
      append: (records: TranscriptRecord[]) => this.append(records),
    };
    this.context = new ContextInjection({
      ...conversation,
      env: deps.env,
      clock: deps.clock,
      logger: deps.logger,
      memory: () => this.policy.memory,
      addItems: (items) => this.addItems(items),
      notice: (text) => this.notice(text),
    });
    this.compaction = new ConversationCompaction({
      ...conversation,
      catalog: deps.catalog,
      restartAtBoundary: () => {
        this.records = conversationChain(this.records ?? []).records;
        // Recalled memories left the context with what the compaction replaced: they may come back, and
        // only those still in it count against the session's budget (docs/memory.md#recall step 9).
        this.recall.recount(this.records);
      },
      injectContext: (agent) => this.context.inject(agent, 'compaction'),
      show: (items) => this.emitUpserts(items),
      notice: (text, id) => this.notice(text, id),
    });
  }

  get project(): string {
    return this.deps.project;
  }

  get sessionId(): string {
    return this.deps.sessionId;
  }

  /**
   * Starts a turn with the user's text; the outcome arrives as `chat:did-update` events. With
   * `replaces` (an edited question) the text goes in that question's place as a new branch: the old
   * question and its answers stay in the transcript (Claude Code's `parentUuid` tree).
   */
  async send(text: string, replaces?: string): Promise<void> {
    if (replaces === undefined) return this.start(async (signal) => this.turnWith(text, signal));
    const history = await this.history();
    const at = history.findIndex((r) => r.uuid === replaces && isMessageRecord(r) && r.message.role === 'user');
    if (at === -1) throw new AppFailure('not_found', 'That question is no longer in the conversation (it was compacted or edited).');
    return this.branch(history.slice(0, at), (signal) => this.turnWith(text, signal));
  }

  /** Answers the newest question again, as a new branch; the earlier answer stays in the transcript. */
  async regenerate(): Promise<void> {
    const history = await this.history();
    let at = -1;
    for (let i = history.length - 1; i >= 0 && at === -1; i--) if (isPromptRecord(history[i]!)) at = i;
    if (at === -1) throw new AppFailure('invalid_request', 'There is no answer to regenerate yet.');
    return this.branch(history.slice(0, at + 1), (signal) => this.turnWith(undefined, signal));
  }

  /**
   * "Continue from this version": an earlier branch (an edited question, a regenerated answer) becomes
   * the conversation again, in the transcript, so the next message, a reload and Claude Code all go on
   * from it. Every window is told to show the conversation anew (a reset).
   */
  async continueFrom(leafUuid: string): Promise<void> {
    if (this.run) throw new AppFailure('conflict', 'Strata is still answering. Stop it or wait for the answer.');
    const paths = await this.deps.catalog.paths(this.deps.project);
    const file = (await this.deps.transcripts.read(paths.projectSlug, this.sessionId)).records;
    if (!file.some((r) => r.uuid === leafUuid)) throw new AppFailure('not_found', 'That version is no longer in the conversation.');
    const copies = branchCopy(file, leafUuid, { uuid: randomUUID, timestamp: new Date(this.deps.clock.now()).toISOString() });
    if (copies.length === 0) return;
    await this.deps.transcripts.append(paths.projectSlug, this.sessionId, copies);
    // The model's history is read again from the transcript, along the version now current.
    this.records = null;
    await this.history();
    const view = await this.deps.catalog.open(this.deps.project, this.sessionId);
    this.emitUpserts(view.items, true);
  }

  /**
   * A turn on a new branch: the model's history is cut back to `base`, every window is told to show the
   * conversation as it was there (a reset), and at the end the whole view again (with earlier versions).
   */
  private branch(base: TranscriptRecord[], work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    return this.start(async (signal) => {
      this.records = base;
      const paths = await this.deps.catalog.paths(this.deps.project);
      const file = (await this.deps.transcripts.read(paths.projectSlug, this.sessionId)).records;
      const leaf = [...base].reverse().find((r) => typeof r.uuid === 'string')?.uuid ?? null;
      this.emitUpserts(recordsToItems(recordsUpTo(file, typeof leaf === 'string' ? leaf : null), this.deps.project), true);
      await work(signal);
      const view = await this.deps.catalog.open(this.deps.project, this.sessionId);
      this.emitUpserts(view.items, true);
    });
  }

  /**
   * Continues after an error: the unanswered user message is already in the transcript, unless the turn
   * failed before it was written (no key yet), and then the prompt is sent again. After the API said the
   * conversation is too long, sending it unchanged could only fail again: Retry compacts it first (as
   * an auto-compaction: notes when they cover it, else the summarizer), then continues.
   */
  retry(): Promise<void> {
    const unsent = this.unsentPrompt;
    const tooLong = this.error?.kind === 'context_too_long';
    return this.start(async (signal) => {
      if (tooLong && (await this.history()).some(isMessageRecord)) await this.compaction.run(await this.currentAgent(), 'auto', undefined, signal);
      await this.turnWith(unsent ?? undefined, signal);
    });
  }

  /** "Compact now": compacts the conversation as it stands, with optional instructions for the summarizer. */
  async compact(instructions?: string): Promise<void> {
    if (!(await this.history()).some(isMessageRecord)) throw new AppFailure('invalid_request', 'There is nothing to compact yet.');
    return this.start(async (signal) => void (await this.compaction.run(await this.currentAgent(), 'manual', instructions?.trim() || undefined, signal)));
  }

  /** Stops the running turn: the stream and any tool are aborted, a waiting permission is denied. */
  async stop(): Promise<boolean> {
    const run = this.run;
    if (!run) return false;
    run.abort.abort();
    this.permissions.denyAll();
    await run.done;
    return true;
  }

  /** The project's instructions changed on the user's word (an include approved): the next turn sends them anew. */
  refreshContext(): void {
    this.context.refresh();
  }

  answerPermission(requestId: string, decision: PermissionDecision): boolean {
    return this.permissions.answer(requestId, decision);
  }

  /** What a view opened now must show besides the transcript: the running turn's phase, the last error. */
  get live(): { phase: RunPhase; error: ChatError | null } {
    return { phase: this.phase, error: this.error };
  }

  /** Resolves when the running turn is over (its memory work may go on). */
  async settled(): Promise<void> {
    await this.run?.done;
  }

  /** Resolves when the turn and the memory work it started are over. */
  async idle(): Promise<void> {
    await this.run?.done;
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
  }

  /** The model-visible records (the chain from the last compact boundary), read once from the transcript. */
  async history(): Promise<TranscriptRecord[]> {
    if (!this.records) {
      this.records = await this.deps.catalog.records(this.deps.project, this.deps.sessionId);
      // A resumed session's earlier attachments still count: never twice, and against the session budget.
      this.recall.recount(this.records);
    }
    return this.records;
  }

  private start(work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    if (this.run) throw new AppFailure('conflict', 'Strata is still answering. Stop it or wait for the answer.');
    const abort = new AbortController();
    this.error = null;
    this.turn = [];
    this.setPhase('streaming');
    const done = (async () => {
      try {
        await work(abort.signal);
      } catch (error) {
        this.deps.logger.error('chat turn failed', { sessionId: this.sessionId, error: (error as Error).message });
        this.fail({ kind: 'server_error', message: `Something went wrong: ${(error as Error).message}. Retry.` });
      } finally {
        this.changes.forgetPending();
        this.streamingId = null;
        // Cleared before the last update, so a Retry sent on seeing it is accepted.
        this.run = null;
        this.setPhase(this.error ? 'error' : 'idle');
      }
    })();
    this.run = { abort, done };
    return Promise.resolve();
  }

  private async turnWith(text: string | undefined, signal: AbortSignal): Promise<void> {
    this.unsentPrompt = text ?? null;
    if (!(await resolveApiKey(this.deps.env))) {
      this.fail({ kind: 'no_api_key', message: 'Add your Anthropic API key in Settings to start chatting.' });
      return;
    }
    const agent = await this.currentAgent();
    const history = await this.history();
    const freshSession = !history.some(isMessageRecord);
    await this.compaction.ifDue(agent, signal);
    // docs/memory.md#instructions: rebuilt at session start, and for a session resumed in this process (another day, an
    // edited CLAUDE.md or MEMORY.md, the notes so far) before its first turn here.
    const due = this.context.dueFor(freshSession);
    if (due) await this.context.inject(agent, due);
    const recall = text !== undefined && this.policy.memory && agent.switches.autoMemory ? await this.recallFor(agent, text, signal) : null;
    let recallPending = recall;
    let announced = false;

    const result = await runQueryLoop({
      llm: agent.llm,
      system: agent.system,
      tools: agent.tools,
      toolContext: agent.mainContext,
      history: [...(await this.history())],
      ...(text !== undefined ? { prompt: text } : {}),
      session: { sessionId: this.sessionId, cwd: agent.paths.projectDir },
      onRecord: async (record) => {
        await this.append([record]);
        this.unsentPrompt = null;
        this.publish();
        // The memory cards of this step's writes go right after its results, before the next request:
        // the same place live and in the transcript, whatever the timing.
        if (hasToolResults(record)) await this.confirmMemoryChanges();
        if (recallPending) {
          // The chips sit under the question they were attached to.
          await this.addItems([recallPending]);
          recallPending = null;
        }
        if (freshSession && record.message.role === 'user' && !announced) {
          announced = true;
          void this.announceSessions();
        }
      },
      onEvent: (event) => this.onAgentEvent(event),
      attachToResult: (call, result) => this.context.instructionsOnRead(agent).forToolResult(call, result),
      recordedToolInput: agent.recordedToolInput,
      hooks: {
        afterModelResponse: (ctx) => this.afterModelResponse(agent, ctx),
        afterTurn: (ctx) => this.afterTurn(agent, ctx),
        // A turn whose tool results fill the context is compacted before its next request, not refused as too long.
        beforeRequest: async () => ((await this.compaction.ifDue(agent, signal)) ? [...(await this.history())] : null),
        onServerCompaction: async (summary) => ((await this.compaction.run(agent, 'auto', undefined, signal, summary)) ? [...(await this.history())] : null),
      },
      maxTurns: this.deps.env.config().agent.maxTurns,
      signal,
      clock: this.deps.clock,
      logger: this.deps.logger,
    });
    this.streamingId = null;
    const error = result.status === 'error' && result.error && result.error.kind !== 'aborted' ? toChatError(result.error) : null;
    this.lastOutcome = { status: result.status, answer: result.text, usage: result.usage, error };
    if (error) this.fail(error);
    else if (result.status === 'max_turns') this.notice('Stopped after the maximum number of steps for one answer. Send a message to continue.');
    this.publish(result.status !== 'completed');
    if (result.status === 'aborted') await this.endTurn('stopped', 'Stopped');
    else if (error && this.unsentPrompt === null) await this.endTurn('failed', `No answer — ${WHY_NO_ANSWER[error.kind]}.`);
    void this.announceSessions();
  }

  private async currentAgent(): Promise<ConversationAgent> {
    this.agent = await ConversationAgent.create({
      env: this.deps.env,
      project: this.deps.project,
      sessionId: this.sessionId,
      readState: this.readState,
      changes: this.changes,
      ...(this.policy.incognito ? { memory: false } : {}),
      permissionGate: { requestPermission: (request) => this.permissions.ask(request) },
      // A memory the model renames keeps its use count (docs/memory.md#provenance-and-use), as a rename in the vault does.
      // Bookkeeping after a rename that happened: its failure is logged, never the tool's.
      afterMemoryMove: (from, to) =>
        MemoryUsageStore.forVault(this.deps.env.vaultRoot, this.deps.clock)
          .moveFiles(from, to)
          .catch((error: unknown) => this.deps.logger.warn('could not move a memory use count', { error: (error as Error).message })),
      review: {
        inbox: this.deps.review.inbox,
        onProposal: (proposal) => {
          void this.addItems([proposalCard(proposal)]);
          this.deps.review.changed(this.deps.project);
        },
      },
    });
    return this.agent;
  }

  private onAgentEvent(event: AgentEvent): void {
    switch (event.type) {
      case 'message_start':
        this.streamingId = event.id;
        if (this.phase !== 'streaming') this.setPhase('streaming');
        break;
      case 'text':
        if (this.streamingId) this.deps.events.stream.fire({ sessionId: this.sessionId, itemId: this.streamingId, text: event.text });
        break;
      case 'tool_start':
        if (this.phase !== 'running-tools') this.setPhase('running-tools');
        break;
      case 'tool_end': {
        const item = recordsToItems(this.turn, this.deps.project, { live: true }).find((i) => i.id === event.id);
        if (item?.kind === 'tool') this.emitUpserts([{ ...item, status: toolStatus(event.isError, event.content), result: event.content }]);
        break;
      }
      default:
        break;
    }
  }

  private async confirmMemoryChanges(): Promise<void> {
    const cards = await this.changes.confirm();
    if (cards.length > 0) await this.addItems(cards);
  }

  /** Items that are not messages (memory cards, notices) go into the transcript and to the UI. */
  private async addItems(items: ChatItem[]): Promise<void> {
    const anchor = this.records?.at(-1)?.uuid;
    await this.append(items.map((item) => itemRecord(item, this.deps.clock.now(), typeof anchor === 'string' ? anchor : undefined)));
    this.emitUpserts(items);
  }

  private notice(text: string, id = `notice-${randomUUID()}`): void {
    void this.addItems([{ kind: 'notice', id, text }]);
  }

  /** "Stopped", or the error that ended the turn, stays in the conversation under what was shown. */
  private async endTurn(reason: 'stopped' | 'failed', text: string): Promise<void> {
    await this.addItems([{ kind: 'turn-end', id: `turn-end-${randomUUID()}`, reason, text }]);
  }

  private async afterModelResponse(agent: ConversationAgent, ctx: HookContext): Promise<void> {
    this.publish();
    if (!this.policy.memory) return;
    const notes = this.deps.engines.notes;
    // The conversation at this response: the loop keeps appending to ctx.records while the update runs,
    // and what comes later must neither feed the decision and the fork nor count as covered.
    const records = [...ctx.records];
    const work = notes
      .afterModelResponse({
        sessionId: this.sessionId,
        projectDir: this.deps.project,
        records,
        fork: agent.notesFork(() => records, () => notes.notesPath(this.deps.project, this.sessionId)),
        isFork: ctx.isFork,
      })
      .then(({ outcome }) => (outcome?.updated ? this.emitNotes(false) : undefined));
    this.track(work);
  }

  private afterTurn(agent: ConversationAgent, ctx: HookContext): void {
    if (!this.policy.memory || !agent.switches.autoMemory || !agent.switches.extraction) return;
    if (projectSwitches(this.deps.env.settings(), this.deps.project).memoryPaused) return;
    this.extractor ??= new MemoryExtractor({
      memoryDir: agent.paths.memoryDir,
      projectDir: agent.paths.projectDir,
      guard: agent.guard,
      // The fork of the conversation as it is when the extraction runs.
      fork: (request) => (this.agent ?? agent).extractorFork(this.changes, (cards) => void this.addItems(cards), () => this.records ?? [])(request),
      // The engines' shared store: the notes updater writes the same session file.
      cursors: new FileCursorStore(this.deps.engines.sessionState),
      config: () => this.deps.env.config().autoMemory,
      switches: () => projectSwitches(this.deps.env.settings(), this.deps.project),
      logger: this.deps.logger,
      clock: this.deps.clock,
      memoryShape: () => this.deps.env.settings().memoryShape,
    });
    this.track(this.extractor.onTurnEnd({ sessionId: this.sessionId, messages: liveMessages(ctx.records) }));
  }

  private track(work: Promise<unknown>): void {
    const guarded = work.catch((error: unknown) => this.deps.logger.warn('memory engine failed', { sessionId: this.sessionId, error: (error as Error).message }));
    this.background.add(guarded);
    void guarded.finally(() => this.background.delete(guarded));
  }

  async emitNotes(updating: boolean): Promise<void> {
    await this.deps.engines.notesView.announce(this.deps.project, this.sessionId, updating);
    // The notes' Session Title names the conversation in the list.
    if (!updating) void this.announceSessions();
  }

  private async appendMeta(agent: ConversationAgent, text: string, extra: Record<string, unknown> = {}): Promise<void> {
    const history = await this.history();
    const builder = new RecordBuilder(history, { sessionId: this.sessionId, cwd: agent.paths.projectDir }, this.deps.clock, false);
    await this.append([{ ...builder.make('user', { role: 'user', content: text }), isMeta: true, ...extra }]);
  }

  /** docs/memory.md#auto-memory recall: up to 5 memory files attached to the question; chips show which. */
  private async recallFor(agent: ConversationAgent, query: string, signal: AbortSignal): Promise<Extract<ChatItem, { kind: 'recall' }> | null> {
    // Real paths, as the tools record what they read: a file the agent already read is never attached.
    const memoryDir = await realpath(agent.paths.memoryDir).catch(() => agent.paths.memoryDir);
    // One per folder, kept by the engines across turns: no rescan of unchanged files, no index rebuild.
    const recall = this.deps.engines.recallFor(memoryDir);
    const seen = new Set([...this.recall.paths, ...this.readState.paths()]);
    const result = await recall
      .recall({ query, seen, sessionBytesUsed: this.recall.bytes, recentTools: recentToolNames(await this.history()), sideQuery: sideQueryOf(agent.small), signal })
      .catch((error: unknown) => {
        this.deps.logger.warn('recall failed', { error: (error as Error).message });
        return null;
      });
    if (!result || result.memories.length === 0) return null;
    const note = this.recall.attach(result.memories);
    await this.appendMeta(agent, result.memories.map(renderRecalled).join('\n\n'), { [RECALL_FIELD]: note });
    // Each memory counts this use (docs/memory.md#provenance-and-use), in the background like extraction.
    this.track(MemoryUsageStore.forVault(this.deps.env.vaultRoot, this.deps.clock).record(note.paths, this.sessionId));
    return {
      kind: 'recall',
      id: `recall-${randomUUID()}`,
      memories: result.memories.map((m) => ({ path: vaultRelative(this.deps.env.vaultRoot, m.absPath), title: m.title, ageDays: m.ageDays })),
    };
  }

  private async append(records: TranscriptRecord[]): Promise<void> {
    const paths = await this.deps.catalog.paths(this.deps.project);
    await this.deps.transcripts.append(paths.projectSlug, this.sessionId, records);
    const history = await this.history();
    for (const r of records) {
      if (r.type === 'strata-item') continue;
      history.push(r);
      this.turn.push(r);
    }
  }

  /** Sends the items of the running turn (cheap: a turn holds a handful of records). */
  private publish(final = false): void {
    this.emitUpserts(recordsToItems(this.turn, this.deps.project, { live: !final }));
  }

  private emitUpserts(upserts: ChatItem[], reset = false): void {
    this.deps.events.update.fire({
      sessionId: this.sessionId,
      upserts,
      ...(reset ? { reset } : {}),
      phase: this.phase,
      error: this.error,
      context: contextMeter(this.records ?? [], this.deps.env.config()),
    });
  }

  private setPhase(phase: RunPhase): void {
    this.phase = phase;
    this.emitUpserts([]);
  }

  /** The error shows once the turn has ended (the last update of the turn). */
  private fail(error: ChatError): void {
    this.error = error;
    this.lastOutcome = { status: 'failed', answer: '', usage: null, error };
  }

  private async announceSessions(): Promise<void> {
    await this.deps.catalog.announce(this.deps.project).catch(() => undefined);
  }
}

const proposalCard = (p: MemoryProposal): MemoryItem => ({
  kind: 'memory',
  id: `proposal-${p.id}`,
  action: p.action,
  path: p.path,
  title: p.title,
  type: p.type,
  diff: p.diff,
  by: 'extractor',
  undoToken: null,
  proposalId: p.id,
});

function vaultRelative(vaultRoot: string, abs: string): string {
  const rel = abs.startsWith(vaultRoot) ? abs.slice(vaultRoot.length + 1) : abs;
  return rel.split('\\').join('/');
}
