import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import type { MemoryConfig } from '../../../common/config.js';
import { projectSettingsSchema, type ProjectSettings, type Settings } from '../../../common/domain/settings.js';
import { createForkRunner, ForkFailedError, mergeSameRole, runForkedAgent, toApiMessages } from '../agent/index.js';
import { newestReminderRecord } from '../transcripts/index.js';
import { ensureMemoryDir, memoryWriteGuard, toLoopCanUseTool, type ForkRunner as ExtractorFork, type MemoryWriteGuard } from '../auto-memory/index.js';
import type { SideQuery } from '../auto-memory/index.js';
import { API_KEY_ACCOUNT } from '../auth/index.js';
import { createLlmClient, type LlmClient } from '../llm/index.js';
import type { ContextFeatures } from '../llm/index.js';
import { DEFAULT_NOTES_TEMPLATE } from '../session-memory/index.js';
import type { CredentialStore } from '../ports.js';
import { ProjectPaths } from '../paths/index.js';
import { SecretAllowanceStore } from '../secrets/index.js';
import type { ForkRunner as NotesFork } from '../agent/index.js';
import { defaultTools, memoryTool, MEMORY_TOOL_NAME, ReadState, realScope, type BeforeMemoryWrite, type PermissionGate, type Tool, type ToolContext } from '../tools/index.js';
import { INDEX_FILE_NAME } from '../auto-memory/index.js';
import { sandboxMemoryPaths } from '../auto-memory/index.js';
import type { ReviewInbox } from '../auto-memory/index.js';
import type { MemoryProposal } from '../../../common/domain/chat.js';
import { stampMemoryWrite, type MemoryShape } from '../../../common/memory-file/index.js';
import { noteChangeAuthor } from '../vault/index.js';
import type { TranscriptRecord } from '../transcripts/index.js';
import type { MemoryChanges, MemoryItem } from './memory-changes.js';
import { buildSystemPrompt, MEMORY_PAUSED } from './system-prompt.js';
import { redactRefusedMemoryWrite } from './redact-refused-write.js';

/** What a conversation needs from the app around it. */
export interface AgentEnvironment {
  vaultRoot: string;
  settings: () => Settings;
  config: () => MemoryConfig;
  credentials: CredentialStore;
  env: NodeJS.ProcessEnv;
  /**
   * The CLI takes `ANTHROPIC_API_KEY` and `ANTHROPIC_BASE_URL` before the keychain and the settings
   * (docs/architecture.md); the app prefers what the user set in Settings and falls back to the environment.
   */
  environmentFirst?: boolean;
}

export function projectSwitches(settings: Settings, project: string): ProjectSettings {
  return settings.projects[project] ?? projectSettingsSchema.parse({});
}

/** The key from the keychain, else `ANTHROPIC_API_KEY`; null when neither is set. */
export async function resolveApiKey(env: AgentEnvironment): Promise<string | null> {
  const fromEnv = env.env.ANTHROPIC_API_KEY || null;
  if (env.environmentFirst && fromEnv) return fromEnv;
  const stored = await env.credentials.get(API_KEY_ACCOUNT).catch(() => null);
  return stored ?? fromEnv;
}

function baseUrlOf(env: AgentEnvironment): string | null {
  const fromEnv = env.env.ANTHROPIC_BASE_URL || null;
  const fromSettings = env.settings().baseUrl;
  return env.environmentFirst ? (fromEnv ?? fromSettings) : (fromSettings ?? fromEnv);
}

/** What the server-side compaction is asked to write: the session notes' own template, so both summaries read alike. */
export const SERVER_COMPACTION_INSTRUCTIONS = `Write the summary as session notes in exactly this markdown template: keep every "# " header and fill the section under it from the conversation; leave a section empty when nothing belongs there. "Current State" must say what the work resumes from.\n\n${DEFAULT_NOTES_TEMPLATE}`;

/**
 * The API's context features for a conversation (docs/memory.md "Fitting a long conversation"):
 * context editing (on by default) never clears the memory tool's results; server compaction only when
 * the user allowed it; the memory tool when memory is written the API's way.
 */
export function contextFeaturesOf(settings: Settings, config: MemoryConfig, memoryOn: boolean): ContextFeatures | undefined {
  const c = config.contextFeatures;
  const usesMemoryTool = memoryOn && settings.memoryWrites === 'memory-tool';
  const features: ContextFeatures = {
    ...(settings.contextEditing
      ? {
          clearToolUses: {
            triggerTokens: c.clearTriggerTokens,
            keepToolUses: c.clearKeepToolUses,
            clearAtLeastTokens: c.clearAtLeastTokens,
            excludeTools: usesMemoryTool ? [MEMORY_TOOL_NAME] : [],
          },
        }
      : {}),
    ...(settings.serverCompaction ? { serverCompaction: { triggerTokens: c.serverCompactionTriggerTokens, instructions: SERVER_COMPACTION_INSTRUCTIONS } } : {}),
    ...(usesMemoryTool ? { memoryTool: true } : {}),
  };
  return Object.keys(features).length > 0 ? features : undefined;
}

export function createClients(env: AgentEnvironment, features?: ContextFeatures): { llm: LlmClient; small: LlmClient } {
  const settings = env.settings();
  const baseURL = baseUrlOf(env);
  const common = { getApiKey: () => resolveApiKey(env), ...(baseURL ? { baseURL } : {}) };
  return {
    llm: createLlmClient({ ...common, model: settings.model, ...(features ? { features } : {}) }),
    small: createLlmClient({ ...common, model: settings.smallModel, maxTokens: 1024 }),
  };
}

/** The recall selector's one-shot call on the small model; a failure makes recall rank locally. */
export function sideQueryOf(small: LlmClient): SideQuery {
  return async (system, user, { maxTokens, signal }) => {
    const r = await small.stream({ system: [{ type: 'text', text: system }], tools: [], messages: [{ role: 'user', content: user }], maxTokens }, { ...(signal ? { signal } : {}) });
    if (!r.ok) throw new Error(r.error.message);
    return r.response.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  };
}

/**
 * The agent's tools: the default list, with writes spelled inside a memory folder kept inside it; with
 * the API's memory tool, that tool too, carried out by those same sandboxed write tools.
 */
export function agentTools(memoryDirs: readonly string[], withMemoryTool = false): Tool[] {
  const tools = sandboxMemoryPaths(defaultTools(), memoryDirs);
  if (!withMemoryTool || memoryDirs.length === 0) return tools;
  const byName = (name: string) => tools.find((t) => t.name === name)!;
  return [...tools, memoryTool({ write: byName('Write'), edit: byName('Edit'), delete: byName('Delete') }) as Tool];
}

/**
 * One conversation's agent: its system prompt and tools (fixed for the session: they are the prompt
 * cache key), the scoped tool contexts of the main agent and of its forks, the memory write guard and
 * the fork runners the memory engines call. Rebuilt per turn so model and base URL changes apply;
 * `readState` and `changes` belong to the session and are passed in.
 */
export class ConversationAgent {
  readonly system: Anthropic.TextBlockParam[];
  readonly tools: Tool[];
  readonly memoryDirs: string[];
  readonly guard: MemoryWriteGuard;
  readonly llm: LlmClient;
  readonly small: LlmClient;
  /** The input to record for a main-agent tool call, or null to keep the model's (see redact-refused-write.ts). */
  recordedToolInput: (call: Anthropic.ToolUseBlockParam) => Promise<unknown> = () => Promise.resolve(null);

  private constructor(
    readonly paths: ProjectPaths,
    readonly sessionId: string,
    readonly switches: ProjectSettings,
    readonly mainContext: Omit<ToolContext, 'signal'>,
    readonly forkContext: Omit<ToolContext, 'signal'>,
    clients: { llm: LlmClient; small: LlmClient },
    memoryDirs: string[],
    guard: MemoryWriteGuard,
    features: ContextFeatures | undefined,
    memoryShape: MemoryShape = '2.1.88',
  ) {
    this.memoryDirs = memoryDirs;
    const withMemoryTool = features?.memoryTool ?? false;
    this.tools = agentTools(memoryDirs, withMemoryTool);
    this.system = buildSystemPrompt({ project: paths.projectDir, memoryDirs, memoryShape, memoryTool: withMemoryTool, memoryPaused: switches.memoryPaused });
    this.guard = guard;
    this.llm = clients.llm;
    this.small = clients.small;
  }

  static async create(input: {
    env: AgentEnvironment;
    project: string;
    sessionId: string;
    readState: ReadState;
    changes: MemoryChanges;
    permissionGate?: PermissionGate;
    /** Review mode: where the extractor's changes wait, and who hears of each. */
    review?: { inbox: ReviewInbox; onProposal: (proposal: MemoryProposal) => void };
    /** False for an incognito conversation: as if auto memory were off (no folder, no index, no recall). */
    memory?: boolean;
    /** The memory tool renamed a memory file (absolute paths): what follows it, its use count, moves too. */
    afterMemoryMove?: (from: string, to: string) => Promise<void>;
  }): Promise<ConversationAgent> {
    const { env, project, sessionId } = input;
    const paths = await ProjectPaths.resolve(env.vaultRoot, project);
    const saved = projectSwitches(env.settings(), project);
    const switches = input.memory === false ? { ...saved, autoMemory: false, extraction: false, teamSync: false } : saved;
    const memoryDirs = switches.autoMemory ? [paths.memoryDir, ...(switches.teamSync ? [paths.teamMemoryDir] : [])] : [];
    // docs/memory.md#auto-memory: the folder exists when the agent starts (its system prompt says so), and its real path
    // is the tools' memory root from the first turn on.
    if (switches.autoMemory) await ensureMemoryDir(paths.memoryDir);
    // The user's "Not a secret" list lets a write through that the scanner would otherwise refuse.
    const allowances = SecretAllowanceStore.forVault(env.vaultRoot);
    const guard = memoryWriteGuard({ memoryDirs, scan: (text) => allowances.scan(text, { fingerprints: true }) });
    const sessionDir = paths.sessionDir(sessionId);
    const limits = env.config().agent;
    // A memory records the conversation that wrote it (the newest Claude Code's originSessionId); in the
    // metadata shape every write is dated too, as that version does (docs/claude-code-parity.md#the-memory-file-shapes).
    const stamped = async (file: string, content: string | null): Promise<string | null> => {
      if (content === null || !file.endsWith('.md') || path.basename(file) === INDEX_FILE_NAME) return content;
      const isNew = !(await stat(file).then(() => true, () => false));
      return stampMemoryWrite(content, { sessionId, shape: env.settings().memoryShape, modified: new Date().toISOString(), isNew });
    };
    const memoryHook = (by: 'agent' | 'extractor') => async (file: string, content: string | null) => {
      // Asked at each write, so pausing applies to a conversation already running.
      if (projectSwitches(env.settings(), project).memoryPaused) return MEMORY_PAUSED;
      const check = await guard.check({ path: file, ...(content === null ? {} : { content }) });
      if (!check.ok) return `Refused: ${check.reason}.`;
      noteChangeAuthor(check.realPath, { kind: by, sessionId });
      const text = await stamped(file, content);
      await input.changes.capture(file, text, by);
      return text !== content && text !== null ? { write: text } : null;
    };
    const afterMemoryMove = input.afterMemoryMove;
    const mainContext: Omit<ToolContext, 'signal'> = {
      scope: await realScope({ project: paths.projectDir, memory: memoryDirs, readOnly: [sessionDir] }),
      readState: input.readState,
      limits,
      ...(input.permissionGate ? { permissionGate: input.permissionGate } : {}),
      beforeMemoryWrite: memoryHook('agent'),
      ...(afterMemoryMove ? { afterMemoryMove } : {}),
    };
    // Forks write their notes in the session folder and memories through the guard; never project files.
    const inSession = (file: string) => file.startsWith(sessionDir + path.sep);
    const review = switches.reviewMode ? input.review : undefined;
    const forkHook: BeforeMemoryWrite = review
      ? async (file, content) => {
          if (projectSwitches(env.settings(), project).memoryPaused) return MEMORY_PAUSED;
          const check = await guard.check({ path: file, ...(content === null ? {} : { content }) });
          if (!check.ok) return `Refused: ${check.reason}.`;
          // The index line is written when the user accepts the memory it points to.
          if (path.basename(file) !== INDEX_FILE_NAME) {
            const folder = memoryDirs.filter((d) => file.startsWith(d + path.sep)).sort((a, b) => b.length - a.length)[0] ?? paths.memoryDir;
            review.onProposal(await review.inbox.propose(folder, { absPath: file, after: await stamped(file, content), sessionId }));
          }
          return { held: 'Saved for the user to review: it lands in memory once they accept it.' };
        }
      : memoryHook('extractor');
    const forkContext: Omit<ToolContext, 'signal'> = {
      scope: await realScope({ project: paths.projectDir, memory: [...memoryDirs, sessionDir], readOnly: [] }),
      // The conversation's reads (recalled memories among them) count as read in the forks, as in Claude
      // Code: the extractor may update a memory the conversation was shown without reading it again.
      readState: new ReadState(mainContext.readState),
      limits,
      beforeMemoryWrite: (file, content) => (inSession(file) ? Promise.resolve(null) : forkHook(file, content)),
      ...(afterMemoryMove ? { afterMemoryMove } : {}),
    };
    // While memory is paused the API's memory tool is not offered: the agent is told it cannot save.
    const features = contextFeaturesOf(env.settings(), env.config(), memoryDirs.length > 0 && !switches.memoryPaused);
    const agent = new ConversationAgent(paths, sessionId, switches, mainContext, forkContext, createClients(env, features), memoryDirs, guard, features, env.settings().memoryShape);
    // The same scan as the guard's, so exactly the values it refuses are kept out of the transcript.
    agent.recordedToolInput = (call) => redactRefusedMemoryWrite(call, { scope: mainContext.scope, scan: (text) => allowances.scan(text, { spans: true }) });
    return agent;
  }

  /** Exactly what the main agent's next request sends: the forks' cache-safe prefix. */
  prefixOf(records: readonly TranscriptRecord[]) {
    return { system: this.system, tools: this.tools, messages: mergeSameRole(toApiMessages([...records])) };
  }

  private get session() {
    return { sessionId: this.sessionId, cwd: this.paths.projectDir };
  }

  /** The session-notes fork (docs/memory.md#session-notes): the notes file counts as read, so its Edit needs no Read first. */
  notesFork(getRecords: () => readonly TranscriptRecord[], notesPath: () => Promise<string>): NotesFork {
    const runner = createForkRunner({
      llm: this.llm,
      getParent: () => this.prefixOf(getRecords()),
      toolContext: this.forkContext,
      session: this.session,
      maxTurns: 5,
    });
    return async (args) => {
      const file = await notesPath();
      const text = await readFile(file, 'utf8').catch(() => null);
      if (text !== null) await this.forkContext.readState.record(file, text);
      return runner(args);
    };
  }

  /** The legacy-compaction summarizer: one turn, no tool use allowed, same prefix. */
  summarizer(getRecords: () => readonly TranscriptRecord[]) {
    return createForkRunner({ llm: this.llm, getParent: () => this.prefixOf(getRecords()), toolContext: this.forkContext, session: this.session, maxTurns: 1 });
  }

  /**
   * The background extractor's fork (docs/memory.md#auto-memory): the parent's prefix up to the covered message. The
   * messages it is given leave the context reminder out (a system record); `contextOf` gives the
   * conversation it is taken from, so the fork sends the same reminder at the head as the parent.
   */
  extractorFork(changes: MemoryChanges, onCards: (cards: MemoryItem[]) => void, contextOf: () => readonly TranscriptRecord[] = () => []): ExtractorFork {
    return async (request) => {
      const r = await runForkedAgent({
        llm: this.llm,
        system: this.system,
        tools: this.tools,
        messages: mergeSameRole(toApiMessages([...newestReminderRecord(contextOf()), ...request.contextMessages])),
        promptMessages: request.promptMessages,
        toolContext: this.forkContext,
        canUseTool: toLoopCanUseTool(request.canUseTool),
        maxTurns: request.maxTurns,
        session: this.session,
        ...(request.signal ? { signal: request.signal } : {}),
      });
      // A failed or stopped run is no success: the extractor's cursor stays (docs/memory.md#auto-memory).
      if (r.status === 'error' || r.status === 'aborted') throw new ForkFailedError(r.status, r.error);
      const cards = await changes.confirm();
      onCards(cards);
      const wrotePaths = cards.map((c) => path.join(this.paths.vaultRoot, c.path));
      return { usage: r.usage, cacheHitRatio: r.cacheHitRatio, wrotePaths };
    };
  }
}
