import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { indexCapNotice } from '../auto-memory/index.js';
import { buildSessionContext, InstructionsOnRead } from '../context/index.js';
import { isStillTemplate, loadCustomization } from '../session-memory/index.js';
import { contextReminderRecord, reminderTextOf } from '../transcripts/index.js';
import type { ConversationAgent } from './agent-setup.js';
import { contextNotices } from './context-notices.js';
import type { ConversationHost } from './conversation-host.js';

/** Why a reminder block is built: a new session, a resumed one, approved instructions, after a compaction. */
export type ContextReason = 'start' | 'resume' | 'refresh' | 'compaction';

/** What the context injection needs of its conversation. */
export interface ContextInjectionHost extends ConversationHost {
  /** False for a session that runs without the memory engines (`strata ask --no-memory`). */
  memory(): boolean;
  notice(text: string): void;
}

/**
 * docs/memory.md#instructions for one conversation: the reminder block (CLAUDE.md files, both MEMORY.md
 * indexes, today's date) at the start, after each compaction and when a session is resumed (then with
 * its notes so far), and Claude Code's nested instructions brought by a Read under a subfolder.
 */
export class ContextInjection {
  /**
   * The reminder block the next turn must build: `resume` until this process has built one (start,
   * resume or compaction), `refresh` after the project's instructions were approved, else null.
   */
  private due: 'resume' | 'refresh' | null = 'resume';
  private onRead: InstructionsOnRead | null = null;

  constructor(private readonly host: ContextInjectionHost) {}

  /** The reason the next turn builds a reminder for, or null when the one in the conversation stands. */
  dueFor(freshSession: boolean): ContextReason | null {
    return freshSession ? 'start' : this.due;
  }

  /** The project's instructions changed on the user's word (an include approved): the next turn sends them anew. */
  refresh(): void {
    this.due ??= 'refresh';
  }

  async inject(agent: ConversationAgent, reason: ContextReason): Promise<void> {
    const { env, clock } = this.host;
    this.due = null;
    // The reminder is rebuilt from the files as they are now: subfolder instructions may come again.
    this.onRead = null;
    const context = await buildSessionContext({
      paths: agent.paths,
      config: env.config(),
      today: new Date(clock.now()),
      autoMemory: agent.switches.autoMemory,
      teamMemory: agent.switches.autoMemory && agent.switches.teamSync,
      approvedExternalIncludes: agent.switches.approvedIncludes,
      sessionNotes: reason === 'resume' ? await this.notesSoFar() : null,
    });
    // A compaction may have kept the first reminder verbatim, a resumed session may hold this very one;
    // when nothing in it changed, once is enough.
    const history = await this.host.history();
    if (history.some((r) => reminderTextOf(r) === context.reminder)) return;
    await this.appendReminder(agent, context.reminder);
    // A refresh follows the user's own approval in this conversation: nothing new to ask or tell.
    if (reason === 'refresh') return;
    const asks = contextNotices(context, reason, env.config().instructions.largeFileChars);
    if (asks.length > 0) await this.host.addItems(asks);
    if (reason === 'resume') return;
    if (agent.switches.autoMemory) {
      const notice = await indexCapNotice(agent.paths.memoryDir, env.config()).catch(() => null);
      if (notice) this.host.notice(notice);
      // The team index is loaded and cut by the same caps (docs/memory.md#auto-memory), so its user hears of it too.
      const team = agent.switches.teamSync ? await indexCapNotice(agent.paths.teamMemoryDir, env.config(), 'The team MEMORY.md').catch(() => null) : null;
      if (team) this.host.notice(team);
    }
  }

  /** Claude Code's nested instructions: a Read under a subfolder brings its CLAUDE.md and matching `paths:` rules, once. */
  instructionsOnRead(agent: ConversationAgent): InstructionsOnRead {
    const config = this.host.env.config().instructions;
    this.onRead ??= new InstructionsOnRead({
      vaultRoot: agent.paths.vaultRoot,
      projectDir: agent.paths.projectDir,
      approvedExternalIncludes: agent.switches.approvedIncludes,
      maxIncludeDepth: config.maxIncludeDepth,
      largeFileChars: config.largeFileChars,
    });
    return this.onRead;
  }

  /** The session's notes for a resumed session's reminder, unless missing, still the template or memory is off. */
  private async notesSoFar(): Promise<{ path: string; content: string } | null> {
    if (!this.host.memory()) return null;
    const vaultRoot = this.host.env.vaultRoot;
    const [notes, custom] = await Promise.all([
      this.host.engines.notesView.read(this.host.project, this.host.sessionId),
      loadCustomization(vaultRoot, this.host.logger),
    ]);
    if (!notes.exists || isStillTemplate(notes.text, custom.template)) return null;
    return { path: path.join(vaultRoot, notes.path), content: notes.text };
  }

  /** Stored as a system record, which Claude Code does not send on resume (docs/claude-code-parity.md). */
  private async appendReminder(agent: ConversationAgent, text: string): Promise<void> {
    const parentUuid = [...(await this.host.history())].reverse().find((r) => typeof r.uuid === 'string')?.uuid ?? null;
    const timestamp = new Date(this.host.clock.now()).toISOString();
    await this.host.append([contextReminderRecord({ uuid: randomUUID(), parentUuid, sessionId: this.host.sessionId, cwd: agent.paths.projectDir, timestamp, text })]);
  }
}
