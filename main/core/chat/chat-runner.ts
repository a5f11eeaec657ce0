import path from 'node:path';
import type { ChatItem, MemoryProposal, PermissionDecision } from '../../../common/domain/chat.js';
import type { ProjectSettings } from '../../../common/domain/settings.js';
import { AppFailure } from '../../../common/result.js';
import type { VaultFile } from '../../../common/domain/vault.js';
import { memoryDir as vaultMemoryDir } from '../vault/index.js';
import { ReviewInbox, type MemoryFileSource } from '../auto-memory/index.js';
import type { Clock, Logger } from '../ports.js';
import type { SettingsStore } from '../settings/index.js';
import type { TranscriptStore } from '../transcripts/index.js';
import { projectSwitches, type AgentEnvironment } from './agent-setup.js';
import { ChatEvents } from './chat-events.js';
import { ChatSession, type SessionPolicy } from './chat-session.js';
import { MemoryEngines } from './memory-engines.js';
import { contextMeter, type SessionCatalog } from './session-catalog.js';
import { isItemRecord, itemRecord, type ItemRecord } from './records-to-items.js';
import type { MemoryItem } from './memory-changes.js';
import { conversationChain } from '../transcripts/index.js';

/**
 * The vault layer's memory writes (`Vault`): a snapshot in the file's history before it is written
 * over, a conflict instead of overwriting an edit made meanwhile, the index line with a new file.
 */
export interface VaultMemoryWriter {
  read(rel: string): Promise<VaultFile>;
  write(rel: string, text: string, options: { baseHash?: string | null; reason?: string }): Promise<VaultFile>;
  createMemory(input: { projectSlug: string; team: boolean; fileName: string; name: string; description: string; type: string; body: string }): Promise<VaultFile>;
}

export interface ChatRunnerDeps {
  env: AgentEnvironment;
  /** The vault's files: "don't remember" writes through them, so the old text goes to history. */
  vaultFiles: VaultMemoryWriter;
  settings: SettingsStore;
  transcripts: TranscriptStore;
  catalog: SessionCatalog;
  clock: Clock;
  logger: Logger;
  /** The vault's catalog of memory folders, which recall reads instead of the disk (auto-memory/memory-source.ts). */
  memoryFiles?: MemoryFileSource;
}

/** The one feedback memory "Don't remember things like this" keeps adding to (docs/memory.md#auto-memory feedback type). */
export const DONT_REMEMBER_FILE = 'feedback_dont_remember.md';
const DONT_REMEMBER = {
  name: 'Things not to save as memories',
  description: 'Kinds of information the user asked not to save as memories; skip them when extracting',
  type: 'feedback',
};
const RULES_HEADING = 'Do not save memories like these:';

function dontRememberBody(rule: string): string {
  return [
    RULES_HEADING,
    rule,
    '',
    '**Why:** the user removed memories saved in the background and asked not to keep things like them.',
    '',
    '**How to apply:** when extracting memories, skip these kinds of information.',
  ].join('\n');
}

/** The memory's text with `rule` added after its last rule line; unchanged when the rule is already there. */
function withRule(text: string, rule: string): string {
  const lines = text.split('\n');
  if (lines.includes(rule)) return text;
  let at = lines.findLastIndex((l) => l.startsWith('- “'));
  if (at === -1) at = lines.indexOf(RULES_HEADING);
  if (at === -1) return `${text}${text.endsWith('\n') ? '' : '\n'}\n${RULES_HEADING}\n${rule}\n`;
  lines.splice(at + 1, 0, rule);
  return lines.join('\n');
}

/** The conversations of one vault that have run a turn in this process, by session id. */
export class ChatRunner {
  readonly engines: MemoryEngines;
  readonly inbox: ReviewInbox;
  private readonly sessions = new Map<string, ChatSession>();
  private readonly offNotes: () => void;
  private readonly events = new ChatEvents();
  /** A conversation's items, phase or error changed (a running turn, or a memory card updated afterwards). */
  readonly onDidUpdate = this.events.update.event;
  /** Text streaming into the answer being written. */
  readonly onDidStream = this.events.stream.event;
  /** A tool call waits for the user's permission. */
  readonly onDidRequestPermission = this.events.permissionRequest.event;
  /** A project's memory proposals changed. */
  readonly onDidChangeProposals = this.events.proposals.event;

  constructor(private readonly deps: ChatRunnerDeps) {
    this.engines = new MemoryEngines({
      vaultRoot: deps.env.vaultRoot,
      config: deps.env.config,
      clock: deps.clock,
      logger: deps.logger,
      incognito: deps.transcripts.incognito,
      memoryFiles: deps.memoryFiles,
    });
    this.inbox = new ReviewInbox(deps.env.vaultRoot, deps.clock);
    this.offNotes = this.engines.onNotesUpdating(({ sessionId, updating }) => void this.sessions.get(sessionId)?.emitNotes(updating));
  }

  session(project: string, sessionId: string, policy?: SessionPolicy): ChatSession {
    let session = this.sessions.get(sessionId);
    if (!session) {
      // An incognito conversation runs with no memory engines and no memory at all, whoever asks.
      const incognito = this.deps.transcripts.incognito.has(sessionId);
      const chosen = incognito ? { writes: policy?.writes ?? 'ask', memory: false, incognito: true } : policy;
      session = new ChatSession({
        ...(chosen ? { policy: chosen } : {}),
        env: this.deps.env,
        project,
        sessionId,
        transcripts: this.deps.transcripts,
        catalog: this.deps.catalog,
        engines: this.engines,
        events: this.events,
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
    for (const session of this.sessions.values()) {
      if (!(await session.changes.undo(undoToken))) continue;
      await this.updateCard(session.project, session.sessionId, (i) => i.kind === 'memory' && i.undoToken === undoToken, (i) => ({ ...i, undoToken: null, state: 'undone' }));
      return true;
    }
    throw new AppFailure('not_found', 'That change can no longer be undone here. Use the file’s history in the vault.');
  }

  /**
   * "Don't remember things like this" on an extractor's card: the memory is undone when it still can be,
   * and a feedback memory tells later extractions to skip this kind of thing (docs/memory.md#auto-memory feedback type).
   */
  async dontRemember(project: string, sessionId: string, itemId: string): Promise<{ saved: string }> {
    const view = await this.deps.catalog.open(project, sessionId);
    const item = view.items.find((i) => i.id === itemId);
    if (item?.kind !== 'memory') throw new AppFailure('not_found', 'That memory card is gone.');
    if (item.undoToken) await this.undoMemory(item.undoToken).catch(() => false);
    const paths = await this.deps.catalog.paths(project);
    const rule = `- “${item.title}”${item.type ? ` (a ${item.type} memory)` : ''}`;
    const rel = `${vaultMemoryDir(paths.memorySlug, false)}/${DONT_REMEMBER_FILE}`;
    const vault = this.deps.vaultFiles;
    // Through the vault: the previous text goes into the file's history, and an edit made meanwhile is a conflict.
    const current = await vault.read(rel).catch((error: unknown) => {
      if (error instanceof AppFailure && error.code === 'not_found') return null;
      throw error;
    });
    if (!current) await vault.createMemory({ projectSlug: paths.memorySlug, team: false, fileName: DONT_REMEMBER_FILE, ...DONT_REMEMBER, body: dontRememberBody(rule) });
    else if (withRule(current.text, rule) !== current.text) await vault.write(rel, withRule(current.text, rule), { baseHash: current.hash, reason: 'dont-remember' });
    return { saved: rel };
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
    const proposal = [...(await this.inbox.list(paths.memoryDir)), ...(await this.inbox.list(paths.teamMemoryDir))].find((p) => p.id === id);
    await this.inbox.resolve(folder, id, decision, text);
    // Every card showing the proposal follows, wherever it was decided.
    if (proposal) {
      const state = decision === 'accept' ? 'accepted' : 'rejected';
      await this.updateCard(project, proposal.sessionId, (i) => i.kind === 'memory' && i.proposalId === id, (i) => ({ ...i, state }));
    }
    return this.announceProposals(project);
  }

  /**
   * A card's new state goes into its conversation's transcript (so a reopened one shows it) and to every
   * window showing the conversation.
   */
  private async updateCard(project: string, sessionId: string, match: (item: ChatItem) => boolean, change: (item: MemoryItem) => MemoryItem): Promise<void> {
    const paths = await this.deps.catalog.paths(project);
    if (!(await this.deps.transcripts.exists(paths.projectSlug, sessionId))) return;
    const file = (await this.deps.transcripts.read(paths.projectSlug, sessionId)).records;
    const latest = new Map<string, ItemRecord>();
    for (const r of file) if (isItemRecord(r)) latest.set(r.item.id, r);
    const record = [...latest.values()].find((r) => match(r.item));
    if (record?.item.kind !== 'memory') return;
    const next = change(record.item);
    await this.deps.transcripts.append(paths.projectSlug, sessionId, [itemRecord(next, this.deps.clock.now(), record.anchorUuid)]);
    const live = this.sessions.get(sessionId)?.live ?? { phase: 'idle' as const, error: null };
    const context = contextMeter(conversationChain(file).records, this.deps.env.config());
    this.events.update.fire({ sessionId, upserts: [next], ...live, context });
  }

  private async announceProposals(project: string): Promise<MemoryProposal[]> {
    const proposals = await this.proposals(project);
    this.events.proposals.fire({ project, proposals });
    return proposals;
  }

  private allowWritesAlways(project: string): Promise<void> {
    return this.updateProject(project, () => ({ alwaysAllowWrites: true }));
  }

  /** The user allowed a CLAUDE.md include outside the project; the project's open conversations send it from their next turn. */
  async approveInclude(project: string, file: string): Promise<void> {
    await this.updateProject(project, (current) => ({ approvedIncludes: [...new Set([...current.approvedIncludes, path.resolve(file)])] }));
    for (const session of this.sessions.values()) if (session.project === project) session.refreshContext();
  }

  private async updateProject(project: string, change: (current: ProjectSettings) => Partial<ProjectSettings>): Promise<void> {
    const settings = this.deps.settings.get();
    const current = projectSwitches(settings, project);
    await this.deps.settings.update({ projects: { ...settings.projects, [project]: { ...current, ...change(current) } } });
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
