import { randomUUID } from 'node:crypto';
import type { ChatError, ChatItem } from '../../../common/domain/chat.js';
import { runQueryLoop, type QueryStatus, type SummedUsage } from '../agent/index.js';
import { isMessageRecord } from '../transcripts/index.js';
import { resolveApiKey, type ConversationAgent } from './agent-setup.js';
import type { BackgroundMemory } from './background-memory.js';
import { toChatError, WHY_NO_ANSWER } from './chat-errors.js';
import type { ContextInjection } from './context-injection.js';
import type { ConversationCompaction } from './conversation-compaction.js';
import type { LiveTurn } from './live-turn.js';
import type { MemoryChanges } from './memory-changes.js';
import type { RecallItem, TurnRecall } from './turn-recall.js';
import { hasToolResults } from './turn-records.js';
import type { ConversationHost } from './conversation-host.js';

/** How the last turn ended, for callers that wait for it. */
export interface TurnOutcome {
  status: QueryStatus | 'failed';
  answer: string;
  usage: SummedUsage | null;
  error: ChatError | null;
}

/** What a turn needs of its conversation: the parts it drives and the records it extends. */
export interface TurnHost extends ConversationHost {
  /** False for a session that runs without the memory engines (`strata ask --no-memory`, incognito). */
  memory(): boolean;
  live: LiveTurn;
  context: ContextInjection;
  compaction: ConversationCompaction;
  recall: TurnRecall;
  background: BackgroundMemory;
  changes: MemoryChanges;
  /** The agent for this turn, built from the settings as they are now. */
  agent(): Promise<ConversationAgent>;
  notice(text: string): void;
  /** The conversation list follows (a new conversation, its title, its last activity). */
  announceSessions(): Promise<void>;
}

/**
 * One turn through the query loop (docs/architecture.md#the-agent): the key, a compaction when due,
 * the reminder block, recall for the question, then the loop with every record appended to the
 * transcript as it becomes final, the memory cards after each step's results, and how the turn ended.
 */
export class TurnRunner {
  lastOutcome: TurnOutcome | null = null;
  /** The prompt of a turn that failed before the prompt reached the transcript. */
  unsentPrompt: string | null = null;
  /** The line the last turn left when it failed ("No answer — …"), and why: what a Retry that answers resolves. */
  failedEnd: { item: Extract<ChatItem, { kind: 'turn-end' }>; why: string } | null = null;

  constructor(private readonly host: TurnHost) {}

  /** `retrying`: the line of the failed try this run retries; failing again, the run says so on that line instead of adding one. */
  async run(text: string | undefined, signal: AbortSignal, retrying: TurnRunner['failedEnd'] = null): Promise<void> {
    const { host } = this;
    this.unsentPrompt = text ?? null;
    this.failedEnd = null;
    // Until the answer starts, the vault's first scan of every file waits: at 10,000 files it would hold back
    // this turn's own reads and its request (docs/memory.md#recall "Reading the folder").
    const letGo = host.engines.holdVaultScan();
    const begun = await this.begin(text, signal).catch((error: unknown) => {
      letGo();
      throw error;
    });
    if (!begun) return letGo();
    const { agent, freshSession, recall } = begun;
    let recallPending = recall;
    let announced = false;

    const result = await runQueryLoop({
      llm: agent.llm,
      system: agent.system,
      tools: agent.tools,
      toolContext: agent.mainContext,
      history: [...(await host.history())],
      ...(text !== undefined ? { prompt: text } : {}),
      session: { sessionId: host.sessionId, cwd: agent.paths.projectDir },
      onRecord: async (record) => {
        await host.append([record]);
        this.unsentPrompt = null;
        host.live.publish();
        // The memory cards of this step's writes go right after its results, before the next request:
        // the same place live and in the transcript, whatever the timing.
        if (hasToolResults(record)) await this.confirmMemoryChanges();
        if (recallPending) {
          // The chips sit under the question they were attached to.
          await host.addItems([recallPending]);
          recallPending = null;
        }
        if (freshSession && record.message.role === 'user' && !announced) {
          announced = true;
          void host.announceSessions();
        }
      },
      onEvent: (event) => {
        letGo();
        host.live.onAgentEvent(event);
      },
      attachToResult: (call, result) => host.context.instructionsOnRead(agent).forToolResult(call, result),
      recordedToolInput: agent.recordedToolInput,
      hooks: {
        afterModelResponse: (ctx) => {
          host.live.publish();
          host.background.afterModelResponse(agent, ctx);
        },
        afterTurn: (ctx) => host.background.afterTurn(agent, ctx),
        // A turn whose tool results fill the context is compacted before its next request, not refused as too long.
        beforeRequest: async () => ((await host.compaction.ifDue(agent, signal)) ? [...(await host.history())] : null),
        onServerCompaction: async (summary) => ((await host.compaction.run(agent, 'auto', undefined, signal, summary)) ? [...(await host.history())] : null),
      },
      maxTurns: host.env.config().agent.maxTurns,
      signal,
      clock: host.clock,
      logger: host.logger,
    }).finally(letGo);
    host.live.streamEnded();
    const error = result.status === 'error' && result.error && result.error.kind !== 'aborted' ? toChatError(result.error) : null;
    this.lastOutcome = { status: result.status, answer: result.text, usage: result.usage, error };
    if (error) this.fail(error);
    else if (result.status === 'max_turns') host.notice('Stopped after the maximum number of steps for one answer. Send a message to continue.');
    host.live.publish(result.status !== 'completed');
    if (result.status === 'aborted') await this.endTurn('stopped', 'Stopped');
    else if (error && this.unsentPrompt === null) {
      const why = WHY_NO_ANSWER[error.kind];
      this.failedEnd = { item: await this.endTurn('failed', `No answer — ${why}.`, retrying?.item.id), why };
    }
    void host.announceSessions();
  }

  /** What comes before the first request: the key, the agent, a compaction when due, the reminder block, recall. Null without a key. */
  private async begin(text: string | undefined, signal: AbortSignal): Promise<{ agent: ConversationAgent; freshSession: boolean; recall: RecallItem | null } | null> {
    const { host } = this;
    if (!(await resolveApiKey(host.env))) {
      this.fail({ kind: 'no_api_key', message: 'Add your Anthropic API key in Settings to start chatting.' });
      return null;
    }
    const agent = await host.agent();
    const history = await host.history();
    const freshSession = !history.some(isMessageRecord);
    await host.compaction.ifDue(agent, signal);
    // docs/memory.md#instructions: rebuilt at session start, and for a session resumed in this process (another day, an
    // edited CLAUDE.md or MEMORY.md, the notes so far) before its first turn here.
    const due = host.context.dueFor(freshSession);
    if (due) await host.context.inject(agent, due);
    const recall = text !== undefined && host.memory() && agent.switches.autoMemory ? await host.recall.forQuestion(agent, text, signal) : null;
    return { agent, freshSession, recall };
  }

  /** The error shows once the turn has ended (the last update of the turn). */
  fail(error: ChatError): void {
    this.host.live.fail(error);
    this.lastOutcome = { status: 'failed', answer: '', usage: null, error };
  }

  private async confirmMemoryChanges(): Promise<void> {
    const cards = await this.host.changes.confirm();
    if (cards.length > 0) await this.host.addItems(cards);
  }

  /** "Stopped", or the error that ended the turn, stays in the conversation under what was shown. */
  private async endTurn(reason: 'stopped' | 'failed', text: string, id = `turn-end-${randomUUID()}`): Promise<Extract<ChatItem, { kind: 'turn-end' }>> {
    const item = { kind: 'turn-end' as const, id, reason, text };
    await this.host.addItems([item]);
    return item;
  }
}
