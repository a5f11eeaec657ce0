/** What the renderer shows of a conversation: a display model derived from transcript records. */

export interface SessionSummary {
  sessionId: string;
  title: string;
  updatedAt: string;
  messageCount: number;
}

export type ChatItem =
  | {
      kind: 'user';
      id: string;
      text: string;
      timestamp: string;
      /**
       * Earlier versions of this turn, kept in the transcript: an edited question, a regenerated answer.
       * `leafUuid` is the newest record of that version's branch ("Continue from this version").
       */
      earlier?: { question: string; answer: string; leafUuid: string }[];
    }
  | { kind: 'assistant'; id: string; text: string; thinking?: string; timestamp: string; streaming?: boolean }
  | {
      kind: 'tool';
      id: string;
      name: string;
      /** A one-line summary of the input for the collapsed card (path, pattern…). */
      summary: string;
      input: unknown;
      /** `paused`: a memory write refused because the user paused memory in the project (not a failure). */
      status: 'running' | 'done' | 'error' | 'denied' | 'paused';
      result?: string;
    }
  | {
      kind: 'compaction';
      id: string;
      /** `server`: the API's own compaction wrote the summary (an option in Settings). */
      path: 'session-notes' | 'summarizer' | 'server';
      reason: string | null;
      tokensBefore: number;
      tokensAfter: number;
      /** Messages kept word for word after the summary (docs/memory.md#compaction: what was kept). */
      keptMessages: number;
      transcriptPath: string;
    }
  | {
      kind: 'memory';
      id: string;
      action: 'saved' | 'updated' | 'deleted';
      /** Path relative to the vault root. */
      path: string;
      title: string;
      type: string | null;
      /** Unified diff of the change. */
      diff: string;
      by: 'agent' | 'extractor';
      /** Present until the change is undone. */
      undoToken: string | null;
      /** Review mode: the change waits in the inbox under this id instead of having landed. */
      proposalId?: string;
      /** What became of the change since (anywhere: this card, the Inbox, another window, the CLI). */
      state?: 'undone' | 'accepted' | 'rejected';
    }
  | {
      kind: 'recall';
      id: string;
      /** Memory files attached to the question that produced the next answer. */
      memories: {
        path: string;
        title: string;
        ageDays: number;
        /** Why recall chose it, in words (docs/memory.md#recall "Why this memory"); absent in older transcripts. */
        why?: string;
      }[];
    }
  | { kind: 'notice'; id: string; text: string }
  /**
   * How a turn ended when it did not end with its answer: Stopped by the user, or the error the
   * banner showed (kept so a reopened conversation shows where the answer is missing and why).
   */
  /** `retried`: a failed try that Retry then answered (the line says so instead of that there is no answer). */
  | { kind: 'turn-end'; id: string; reason: 'stopped' | 'failed' | 'retried'; text: string }
  | {
      kind: 'include-approval';
      id: string;
      /** A file outside the project that a CLAUDE.md wants to include (docs/memory.md#instructions: asked once). */
      path: string;
      includedFrom: string;
    };

/** Errors a user can act on (docs/memory.md: each with a retry action, none crashing the session). */
export type ChatErrorKind =
  | 'no_api_key'
  | 'invalid_key'
  | 'rate_limited'
  | 'overloaded'
  | 'context_too_long'
  | 'offline'
  | 'server_error'
  | 'bad_request';

export interface ChatError {
  kind: ChatErrorKind;
  message: string;
  retryAfterSeconds?: number;
}

export type RunPhase = 'idle' | 'streaming' | 'running-tools' | 'waiting-permission' | 'error';

export interface ContextMeter {
  used: number;
  /** Auto-compaction threshold (docs/memory.md#compaction). */
  threshold: number;
  /** True once `used` is within the warning buffer of the threshold. */
  warning: boolean;
  /** Tokens of old tool results the API's context editing left out of the newest request. */
  cleared?: number;
}

/** The session's notes file (docs/memory.md#session-notes), shown live in the side panel and editable by the user. */
export interface SessionNotes {
  sessionId: string;
  /** Path relative to the vault root. */
  path: string;
  exists: boolean;
  text: string;
  hash: string | null;
  /** True while the background updater is editing the notes. */
  updating: boolean;
}

export interface ChatSessionView {
  /** Reads and writes no memory; its transcript is gone when the app quits (docs/memory.md#pause-and-incognito). */
  incognito?: true;
  projectPath: string;
  sessionId: string;
  title: string;
  items: ChatItem[];
  phase: RunPhase;
  error: ChatError | null;
  context: ContextMeter;
  /** What the running turn waits on before its first token, when that takes a while ("Finding memories… (10,000)"). */
  progress?: string;
}

/** A write outside the memory folders waiting for the user (allow once / always / deny). */
export interface PermissionRequest {
  requestId: string;
  sessionId: string;
  tool: string;
  path: string;
  /** Unified diff of the change (a new file shows as all additions). */
  diff: string;
  /** The file's text before and after, for a side-by-side view; absent from older senders. */
  before?: string;
  after?: string;
  /** The write creates the file. */
  created?: boolean;
}

export type PermissionDecision = 'allow_once' | 'allow_always' | 'deny';

/** A change to one open session, pushed as it happens. */
export interface ChatUpdate {
  sessionId: string;
  /** Items added or replaced (matched by id), in order. */
  upserts: ChatItem[];
  /** The upserts are the whole conversation: a branch (an edited question, a regenerated answer) replaced what was shown. */
  reset?: boolean;
  phase: RunPhase;
  error: ChatError | null;
  context: ContextMeter;
  /** Set while the turn waits on slow work before its first token; absent otherwise (docs/memory.md#recall). */
  progress?: string;
}

/** A streamed text delta for an assistant item; cheaper than an upsert per token. */
export interface ChatDelta {
  sessionId: string;
  itemId: string;
  text: string;
}

/** Review mode (docs/memory.md#auto-memory): a change the extractor proposed, waiting for the user. */
export interface MemoryProposal {
  id: string;
  /** Path relative to the vault root. */
  path: string;
  action: 'saved' | 'updated' | 'deleted';
  title: string;
  type: string | null;
  /** Unified diff, for the proposal's card in the conversation. */
  diff: string;
  /** The memory as it is now (null for a new one), for the Inbox's side-by-side view. */
  before: string | null;
  /** The proposed text (null for a deletion). */
  text: string | null;
  sessionId: string;
  createdAt: string;
}

/** What one compaction replaced, shown read-only from its divider. */
export interface BeforeCompaction {
  /** The conversation as it was shown up to the compaction. */
  items: ChatItem[];
  /** The summary the model works from after it. */
  summary: string;
  /** The transcript's records up to the compaction, one JSON record a line. */
  raw: string;
}
