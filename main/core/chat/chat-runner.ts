import path from 'node:path';
import type { MemoryProposal, PermissionDecision } from '../../../common/domain/chat.js';
import type { ProjectSettings } from '../../../common/domain/settings.js';
import { AppFailure } from '../../../common/result.js';
import { MemoryStore } from '../auto-memory/index.js';
import { ReviewInbox } from '../auto-memory/review-inbox.js';
import type { EventHub } from '../events.js';
import type { Clock, Logger } from '../ports.js';
import type { SettingsStore } from '../settings/settings-store.js';
import type { TranscriptStore } from '../transcripts/transcript-store.js';
import { projectSwitches, type AgentEnvironment } from './agent-setup.js';
import { ChatSession, type SessionPolicy } from './chat-session.js';
import { MemoryEngines } from './memory-engines.js';
import type { SessionCatalog } from './session-catalog.js';

export interface ChatRunnerDeps {
  env: AgentEnvironment;
  settings: SettingsStore;
  transcripts: TranscriptStore;
  catalog: SessionCatalog;
  events: EventHub;
  clock: Clock;
  logger: Logger;
}

const slugWords = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40) || 'memory';

/** The conversations of one vault that have run a turn in this process, by session id. */
export class ChatRunner {
  readonly engines: MemoryEngines;
  readonly inbox: ReviewInbox;
  private readonly sessions = new Map<string, ChatSession>();
  private readonly offNotes: () => void;

  constructor(private readonly deps: ChatRunnerDeps) {
    this.engines = new MemoryEngines({ vaultRoot: deps.env.vaultRoot, config: deps.env.config, clock: deps.clock, logger: deps.logger });
    this.inbox = new ReviewInbox(deps.env.vaultRoot, deps.clock);
    this.offNotes = this.engines.onNotesUpdating(({ sessionId, updating }) => void this.sessions.get(sessionId)?.emitNotes(updating));
  }

  session(project: string, sessionId: string, policy?: SessionPolicy): ChatSession {
    let session = this.sessions.get(sessionId);
    if (!session) {
      session = new ChatSession({
        ...(policy ? { policy } : {}),
        env: this.deps.env,
        project,
        sessionId,
        transcripts: this.deps.transcripts,
        catalog: this.deps.catalog,
        engines: this.engines,
        events: this.deps.events,
        clock: this.deps.clock,
        logger: this.deps.logger,
        allowWritesAlways: (p) => this.allowWritesAlways(p),
        review: { inbox: this.inbox, changed: (p) => void this.announceProposals(p) },
      });
      this.sessions.set(sessionId, session);
    }
    return session;
  }

  /** Before a conversation is deleted: its turn stops and its cached history goes (Undo re-reads it). */
  async forget(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    await session.stop();
    this.sessions.delete(sessionId);
  }

  find(sessionId: string): ChatSession | null {
    return this.sessions.get(sessionId) ?? null;
  }

  answerPermission(requestId: string, decision: PermissionDecision): boolean {
    for (const session of this.sessions.values()) if (session.answerPermission(requestId, decision)) return true;
    return false;
  }

  async undoMemory(undoToken: string): Promise<boolean> {
    for (const session of this.sessions.values()) if (await session.changes.undo(undoToken)) return true;
    throw new AppFailure('not_found', 'That change can no longer be undone here. Use the file’s history in the vault.');
  }

  /**
   * "Don't remember things like this" on an extractor's card: the memory is undone when it still can be,
   * and a feedback memory tells later extractions to skip this kind of thing (SPEC §4 feedback type).
   */
  async dontRemember(project: string, sessionId: string, itemId: string): Promise<{ saved: string }> {
    const view = await this.deps.catalog.open(project, sessionId);
    const item = view.items.find((i) => i.id === itemId);
    if (item?.kind !== 'memory') throw new AppFailure('not_found', 'That memory card is gone.');
    if (item.undoToken) await this.undoMemory(item.undoToken).catch(() => false);
    const paths = await this.deps.catalog.paths(project);
    const store = new MemoryStore(paths.memoryDir, this.deps.env.config().autoMemory);
    await store.ensure();
    const saved = await store.create({
      file: `feedback_dont_remember_${slugWords(item.title)}.md`,
      name: `Don't save memories like “${item.title}”`,
      description: `The user asked not to remember things like “${item.title}”${item.type ? ` (${item.type})` : ''}`,
      type: 'feedback',
      body: [
        `Do not save memories like “${item.title}”${item.type ? ` (a ${item.type} memory)` : ''}.`,
        '',
        '**Why:** the user removed one that was saved in the background and asked not to keep things like it.',
        '',
        '**How to apply:** when extracting memories, skip this kind of information.',
      ].join('\n'),
    });
    return { saved: path.relative(this.deps.env.vaultRoot, saved).split(path.sep).join('/') };
  }

  /** Review mode's inbox for the project: its own memory folder and its team folder. */
  async proposals(project: string): Promise<MemoryProposal[]> {
    const paths = await this.deps.catalog.paths(project);
    return [...(await this.inbox.list(paths.memoryDir)), ...(await this.inbox.list(paths.teamMemoryDir))].sort((a, b) =>
      a.createdAt.localeCompare(b.createdAt),
    );
  }

  async resolveProposal(project: string, id: string, decision: 'accept' | 'reject', text?: string): Promise<MemoryProposal[]> {
    const paths = await this.deps.catalog.paths(project);
    const folder = (await this.inbox.list(paths.teamMemoryDir)).some((p) => p.id === id) ? paths.teamMemoryDir : paths.memoryDir;
    await this.inbox.resolve(folder, id, decision, text);
    return this.announceProposals(project);
  }

  private async announceProposals(project: string): Promise<MemoryProposal[]> {
    const proposals = await this.proposals(project);
    this.deps.events.emit('memory:did-change-proposals', { project, proposals });
    return proposals;
  }

  private allowWritesAlways(project: string): Promise<void> {
    return this.updateProject(project, () => ({ alwaysAllowWrites: true }));
  }

  /** The user allowed a CLAUDE.md include outside the project; it is read from the next context build on. */
  approveInclude(project: string, file: string): Promise<void> {
    return this.updateProject(project, (current) => ({ approvedIncludes: [...new Set([...current.approvedIncludes, path.resolve(file)])] }));
  }

  private async updateProject(project: string, change: (current: ProjectSettings) => Partial<ProjectSettings>): Promise<void> {
    const settings = this.deps.settings.get();
    const current = projectSwitches(settings, project);
    const next = await this.deps.settings.update({ projects: { ...settings.projects, [project]: { ...current, ...change(current) } } });
    this.deps.events.emit('settings:did-change', next);
  }

  /**
   * Stops every running turn and gives the memory work they started a moment to finish (its writes are
   * atomic, so one cut short loses that update only).
   */
  async close(graceMs = 10_000): Promise<void> {
    this.offNotes();
    const finished = Promise.all([...this.sessions.values()].map(async (s) => (await s.stop(), await s.idle())));
    await Promise.race([finished, new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
  }
}
