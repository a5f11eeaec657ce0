import { randomUUID } from 'node:crypto';
import type { ChatItem, MemoryProposal, PermissionDecision } from '../../../common/domain/chat.js';
import { AppFailure } from '../../../common/result.js';
import { MemoryUsageStore } from '../auto-memory/index.js';
import type { ReviewInbox } from '../auto-memory/index.js';
import type { Clock, Logger } from '../ports.js';
import { ReadState } from '../tools/index.js';
import { conversationChain, isMessageRecord, type TranscriptRecord, type TranscriptStore } from '../transcripts/index.js';
import { ConversationAgent, projectSwitches, type AgentEnvironment } from './agent-setup.js';
import { BackgroundMemory } from './background-memory.js';
import type { ChatEvents } from './chat-events.js';
import { TurnRunner, type TurnOutcome } from './chat-turn.js';
import { branchCopy, recordsUpTo } from './branches.js';
import { ContextInjection } from './context-injection.js';
import { ConversationCompaction } from './conversation-compaction.js';
import { LiveTurn } from './live-turn.js';
import { MemoryChanges, type MemoryItem } from './memory-changes.js';
import type { MemoryEngines } from './memory-engines.js';
import { PermissionBroker } from './permission-broker.js';
import { RefusedWrites } from './refused-writes.js';
import { itemRecord, recordsToItems } from './records-to-items.js';
import type { SessionCatalog } from './session-catalog.js';
import { TurnRecall } from './turn-recall.js';
import { isPromptRecord } from './turn-records.js';

export type { TurnOutcome } from './chat-turn.js';

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

/**
 * One open conversation (docs/architecture.md#the-agent): what the user can do with it (send, edit and
 * resend, regenerate, continue from a version, retry, compact, stop), one run at a time, over the
 * model-visible records read once from the transcript. A turn runs in `TurnRunner`, the windows are
 * told in `LiveTurn`, the memory engines hang on the loop in `BackgroundMemory`, recall in `TurnRecall`,
 * compaction in `ConversationCompaction` (docs/memory.md#session-notes).
 */
export class ChatSession {
  private records: TranscriptRecord[] | null = null;
  private run: { abort: AbortController; done: Promise<void> } | null = null;
  private readonly permissions: PermissionBroker;
  private readonly readState = new ReadState();
  readonly changes: MemoryChanges;
  private agent: ConversationAgent | null = null;
  private readonly policy: SessionPolicy;
  private readonly view: LiveTurn;
  private readonly recall: TurnRecall;
  private readonly background: BackgroundMemory;
  private readonly context: ContextInjection;
  private readonly compaction: ConversationCompaction;
  private readonly turns: TurnRunner;
  private readonly refused = new RefusedWrites();

  constructor(private readonly deps: ChatSessionDeps) {
    this.changes = new MemoryChanges(deps.env.vaultRoot);
    this.policy = deps.policy ?? { writes: 'ask', memory: true };
    const memory = () => this.policy.memory;
    this.view = new LiveTurn({ ...deps, config: deps.env.config, contextRecords: () => this.records ?? [] });
    this.permissions = new PermissionBroker({
      sessionId: deps.sessionId,
      writes: () => this.policy.writes,
      alwaysAllowed: () => projectSwitches(deps.env.settings(), deps.project).alwaysAllowWrites,
      rememberAlways: () => deps.allowWritesAlways(deps.project),
      announce: (request) => deps.events.permissionRequest.fire(request),
      waiting: (waiting) => (waiting ? this.view.setPhase('waiting-permission') : this.run && this.view.setPhase('running-tools')),
    });
    const conversation = {
      ...deps,
      history: () => this.history(),
      append: (records: TranscriptRecord[]) => this.append(records),
      addItems: (items: ChatItem[]) => this.addItems(items),
    };
    this.background = new BackgroundMemory({
      ...conversation,
      changes: this.changes,
      memory,
      agent: () => this.agent,
      records: () => this.records ?? [],
      notesUpdated: () => this.emitNotes(false),
    });
    this.recall = new TurnRecall({
      ...conversation,
      readState: this.readState,
      track: (work) => this.background.track(work),
      progress: (text) => this.view.setProgress(text),
    });
    this.context = new ContextInjection({ ...conversation, memory, notice: (text) => this.notice(text) });
    this.compaction = new ConversationCompaction({
      ...conversation,
      restartAtBoundary: () => {
        this.records = conversationChain(this.records ?? []).records;
        // Recalled memories left the context with what the compaction replaced: they may come back, and
        // only those still in it count against the session's budget (docs/memory.md#recall step 9).
        this.recall.recount(this.records);
      },
      injectContext: (agent) => this.context.inject(agent, 'compaction'),
      show: (items) => this.view.emit(items),
      notice: (text, id) => this.notice(text, id),
    });
    this.turns = new TurnRunner({
      ...conversation,
      memory,
      live: this.view,
      context: this.context,
      compaction: this.compaction,
      recall: this.recall,
      background: this.background,
      changes: this.changes,
      agent: () => this.currentAgent(),
      notice: (text) => this.notice(text),
      announceSessions: () => this.announceSessions(),
    });
  }

  get project(): string {
    return this.deps.project;
  }

  get sessionId(): string {
    return this.deps.sessionId;
  }

  /** How the last turn ended (`strata ask` prints it). */
  get lastOutcome(): TurnOutcome | null {
    return this.turns.lastOutcome;
  }

  /**
   * Starts a turn with the user's text; the outcome arrives as `chat:did-update` events. With
   * `replaces` (an edited question) the text goes in that question's place as a new branch: the old
   * question and its answers stay in the transcript (Claude Code's `parentUuid` tree).
   */
  async send(text: string, replaces?: string): Promise<void> {
    if (replaces === undefined) return this.start(async (signal) => this.turns.run(text, signal));
    const history = await this.history();
    const at = history.findIndex((r) => r.uuid === replaces && isMessageRecord(r) && r.message.role === 'user');
    if (at === -1) throw new AppFailure('not_found', 'That question is no longer in the conversation (it was compacted or edited).');
    return this.branch(history.slice(0, at), (signal) => this.turns.run(text, signal));
  }

  /** Answers the newest question again, as a new branch; the earlier answer stays in the transcript. */
  async regenerate(): Promise<void> {
    const history = await this.history();
    let at = -1;
    for (let i = history.length - 1; i >= 0 && at === -1; i--) if (isPromptRecord(history[i]!)) at = i;
    if (at === -1) throw new AppFailure('invalid_request', 'There is no answer to regenerate yet.');
    return this.branch(history.slice(0, at + 1), (signal) => this.turns.run(undefined, signal));
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
    this.view.emit(view.items, true);
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
      this.view.emit(recordsToItems(recordsUpTo(file, typeof leaf === 'string' ? leaf : null), this.deps.project), true);
      await work(signal);
      const view = await this.deps.catalog.open(this.deps.project, this.sessionId);
      this.view.emit(view.items, true);
    });
  }

  /**
   * Continues after an error: the unanswered user message is already in the transcript, unless the turn
   * failed before it was written (no key yet), and then the prompt is sent again. After the API said the
   * conversation is too long, sending it unchanged could only fail again: Retry compacts it first (as
   * an auto-compaction: notes when they cover it, else the summarizer), then continues.
   */
  retry(): Promise<void> {
    const unsent = this.turns.unsentPrompt;
    const tooLong = this.view.state.error?.kind === 'context_too_long';
    const failed = this.turns.failedEnd;
    return this.start(async (signal) => {
      if (tooLong && (await this.history()).some(isMessageRecord)) await this.compaction.run(await this.currentAgent(), 'auto', undefined, signal);
      await this.turns.run(unsent ?? undefined, signal, failed);
      // The failed try's line no longer says there is no answer: it stays, in its place, as what happened.
      if (failed && this.turns.lastOutcome?.status === 'completed') await this.addItems([{ ...failed.item, reason: 'retried', text: `The first try failed (${failed.why}); Retry answered.` }]);
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
  get live(): LiveTurn['state'] {
    return this.view.state;
  }

  /** Resolves when the running turn is over (its memory work may go on). */
  async settled(): Promise<void> {
    await this.run?.done;
  }

  /** Resolves when the turn and the memory work it started are over. */
  async idle(): Promise<void> {
    await this.run?.done;
    await this.background.idle();
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

  async emitNotes(updating: boolean): Promise<void> {
    await this.deps.engines.notesView.announce(this.deps.project, this.sessionId, updating);
    // The notes' Session Title names the conversation in the list.
    if (!updating) void this.announceSessions();
  }

  private start(work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    if (this.run) throw new AppFailure('conflict', 'Strata is still answering. Stop it or wait for the answer.');
    const abort = new AbortController();
    this.view.begin();
    const done = (async () => {
      try {
        await work(abort.signal);
      } catch (error) {
        this.deps.logger.error('chat turn failed', { sessionId: this.sessionId, error: (error as Error).message });
        this.turns.fail({ kind: 'server_error', message: `Something went wrong: ${(error as Error).message}. Retry.` });
      } finally {
        this.changes.forgetPending();
        // Cleared before the last update, so a Retry sent on seeing it is accepted.
        this.run = null;
        this.view.end();
      }
    })();
    this.run = { abort, done };
    return Promise.resolve();
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
    this.refused.watch(this.agent);
    return this.agent;
  }

  /** "Save it now" on a memory write the guard refused, once the user marked its finding "Not a secret": the same write, with its card. */
  async saveRefusedWrite(toolUseId: string): Promise<void> {
    if (this.run) throw new AppFailure('conflict', 'Strata is still answering. Save it once the answer is done.');
    const cards = await this.refused.save(toolUseId, await this.currentAgent(), this.changes);
    if (cards.length > 0) await this.addItems(cards);
  }

  /** Items that are not messages (memory cards, notices) go into the transcript and to the UI. */
  private async addItems(items: ChatItem[]): Promise<void> {
    const anchor = this.records?.at(-1)?.uuid;
    await this.append(items.map((item) => itemRecord(item, this.deps.clock.now(), typeof anchor === 'string' ? anchor : undefined)));
    this.view.emit(items);
  }

  private notice(text: string, id = `notice-${randomUUID()}`): void {
    void this.addItems([{ kind: 'notice', id, text }]);
  }

  private async append(records: TranscriptRecord[]): Promise<void> {
    const paths = await this.deps.catalog.paths(this.deps.project);
    await this.deps.transcripts.append(paths.projectSlug, this.sessionId, records);
    const history = await this.history();
    for (const r of records) {
      if (r.type === 'strata-item') continue;
      history.push(r);
      this.view.add(r);
    }
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
