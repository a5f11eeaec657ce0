import { z } from 'zod';
import type { Result } from '../result.js';
import { invoke, event, type InvokeDef, type EventDef } from './define.js';
import { settingsPatchSchema, type Settings } from '../domain/settings.js';
import { memoryTypes } from '../memory-file/memory-types.js';
import type { AppInfo, CredentialStatus, DirListing, Project, VaultRootInfo, VaultState } from '../domain/app.js';
import type {
  ChatDelta,
  BeforeCompaction,
  ChatSessionView,
  SessionNotes,
  ChatUpdate,
  MemoryProposal,
  PermissionRequest,
  SessionSummary,
} from '../domain/chat.js';
import { healthFixKinds } from '../domain/vault.js';
import type {
  ChangeAuthor,
  HealthFixResult,
  HealthUndoResult,
  HealthReport,
  MemoryLinks,
  HistoryVersion,
  MemoryIndexView,
  SearchHit,
  VaultChange,
  IndexLineSkipped,
  VaultFile,
  VaultFileMeta,
  WrittenMemory,
} from '../domain/vault.js';
import type { ConflictView, DeletedTeamFile, TeamStatus } from '../domain/team.js';
import type { SecretAllowanceView } from '../domain/secrets.js';
import type { ImportPreview, ImportResult } from '../domain/portability.js';
import type { ConsolidationChangeset } from '../domain/consolidation.js';
import type { MemoryUsage } from '../domain/memory-use.js';

const none = z.object({}).strict();
const sessionId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/);
/** A path inside the vault, relative, with `/`; main re-checks that it stays inside. */
const vaultPath = z
  .string()
  .min(1)
  .max(1024)
  .refine((p) => !p.includes('\0') && !p.startsWith('/') && !p.split('/').includes('..'), 'not a vault path');
const memoryTypeField = z.enum(memoryTypes);
/** An absolute path on the user's machine: POSIX `/…`, Windows `C:\…` or `\\server\share…`; main resolves nothing relative to its own folder. */
const absolutePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => !p.includes('\0'), 'NUL in path')
  .refine((p) => /^(?:\/|[A-Za-z]:[\\/]|\\\\[^\\])/.test(p), 'not an absolute path');
/** One memory of an import preview, as the user kept or edited it (docs/memory-upkeep.md). */
const importItem = z
  .object({
    id: z.string().min(1).max(64),
    fileName: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,120}\.md$/),
    name: z.string().trim().min(1).max(200),
    description: z.string().trim().min(1).max(500),
    type: memoryTypeField,
    body: z.string().max(1_000_000),
    verbatim: z.string().max(1_000_000).optional(),
  })
  .strict();

/**
 * The one IPC contract (docs/architecture.md): invoke channels `domain:verb` → `Result<T>`, event channels
 * `domain:did-…`. The preload, the host's WebSocket router and the renderer bridge are derived from
 * these two maps; adding a channel is one entry here plus its handler in `main/core/ipc/handlers.ts`.
 */
export const invokeChannels = {
  'app:info': invoke<AppInfo>()(none),
  'settings:get': invoke<Settings>()(none),
  'settings:set': invoke<Settings>()(z.object({ patch: settingsPatchSchema }).strict()),
  'project:open': invoke<Project>()(z.object({ path: absolutePath }).strict()),
  'project:list': invoke<Project[]>()(none),
  'project:forget': invoke<Project[]>()(z.object({ path: absolutePath }).strict()),
  'vault:get-root': invoke<VaultRootInfo>()(none),
  'vault:set-root': invoke<VaultRootInfo>()(z.object({ root: absolutePath.nullable() }).strict()),
  'fs:list-dirs': invoke<DirListing>()(z.object({ path: absolutePath.optional(), zips: z.boolean().optional() }).strict()),
  'credentials:status': invoke<CredentialStatus>()(none),
  'credentials:set-api-key': invoke<CredentialStatus>()(z.object({ key: z.string().trim().min(1).max(512) }).strict()),
  'credentials:clear-api-key': invoke<CredentialStatus>()(none),
  'chat:list-sessions': invoke<SessionSummary[]>()(z.object({ project: absolutePath }).strict()),
  'chat:new-session': invoke<ChatSessionView>()(z.object({ project: absolutePath }).strict()),
  /** A conversation that reads and writes no memory, its transcript outside the vault until the app quits. */
  'chat:new-incognito-session': invoke<ChatSessionView>()(z.object({ project: absolutePath }).strict()),
  'chat:open-session': invoke<ChatSessionView>()(z.object({ project: absolutePath, sessionId }).strict()),
  /** A compaction divider's "Show the conversation before it": what that compaction replaced, read-only. */
  'chat:before-compaction': invoke<BeforeCompaction>()(z.object({ project: absolutePath, sessionId, compactionId: z.string().min(1).max(128) }).strict()),
  'chat:send': invoke<{ accepted: true }>()(
    z
      .object({
        project: absolutePath,
        sessionId,
        text: z.string().trim().min(1).max(200_000),
        /** Edit and resend: the id of the question this text replaces (a new branch). */
        replaces: z.string().min(1).max(128).optional(),
      })
      .strict(),
  ),
  'chat:regenerate': invoke<{ accepted: true }>()(z.object({ project: absolutePath, sessionId }).strict()),
  /** "Continue from this version": the branch ending at `leafUuid` (an earlier version) becomes the conversation. */
  'chat:continue-branch': invoke<{ accepted: true }>()(z.object({ project: absolutePath, sessionId, leafUuid: z.string().min(1).max(128) }).strict()),
  'chat:stop': invoke<{ stopped: boolean }>()(z.object({ sessionId }).strict()),
  /** "Compact now" (docs/memory.md#compaction): instructions skip the notes and steer the summarizer. */
  'chat:compact': invoke<{ accepted: true }>()(
    z.object({ project: absolutePath, sessionId, instructions: z.string().max(4000).optional() }).strict(),
  ),
  'chat:retry': invoke<{ accepted: true }>()(z.object({ project: absolutePath, sessionId }).strict()),
  'chat:answer-permission': invoke<{ answered: boolean }>()(
    z.object({ requestId: z.string().min(1).max(128), decision: z.enum(['allow_once', 'allow_always', 'deny']) }).strict(),
  ),
  'chat:rename-session': invoke<SessionSummary[]>()(
    z.object({ project: absolutePath, sessionId, title: z.string().trim().min(1).max(200) }).strict(),
  ),
  'chat:delete-session': invoke<{ undoToken: string }>()(z.object({ project: absolutePath, sessionId }).strict()),
  'chat:undo-delete': invoke<SessionSummary[]>()(
    z.object({ project: absolutePath, undoToken: z.string().min(1).max(256) }).strict(),
  ),
  'chat:approve-include': invoke<{ approved: true }>()(z.object({ project: absolutePath, path: absolutePath }).strict()),
  'chat:undo-memory': invoke<{ undone: boolean }>()(z.object({ undoToken: z.string().min(1).max(256) }).strict()),
  /** "Save it now" on a memory write refused for a secret the user then marked "Not a secret": main makes the write it holds again. */
  'chat:save-refused-write': invoke<{ saved: true }>()(
    z.object({ project: absolutePath, sessionId, toolUseId: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/) }).strict(),
  ),
  'chat:dont-remember': invoke<{ saved: string }>()(
    z.object({ project: absolutePath, sessionId, itemId: z.string().min(1).max(128) }).strict(),
  ),
  'memory:list-proposals': invoke<MemoryProposal[]>()(z.object({ project: absolutePath }).strict()),
  'memory:resolve-proposal': invoke<MemoryProposal[]>()(
    z
      .object({
        project: absolutePath,
        id: z.string().min(1).max(128),
        decision: z.enum(['accept', 'reject']),
        text: z.string().max(1_000_000).optional(),
      })
      .strict(),
  ),
  'notes:read': invoke<SessionNotes>()(z.object({ project: absolutePath, sessionId }).strict()),
  'notes:write': invoke<SessionNotes>()(
    z.object({ project: absolutePath, sessionId, text: z.string().max(1_000_000), baseHash: z.string().nullable() }).strict(),
  ),
  'team:status': invoke<TeamStatus>()(z.object({ project: absolutePath }).strict()),
  'team:sign-in': invoke<TeamStatus>()(z.object({ project: absolutePath }).strict()),
  'team:sign-out': invoke<TeamStatus>()(z.object({ project: absolutePath }).strict()),
  // confirmDeletions: the user confirmed the local deletions the mass-delete guard held back.
  'team:sync-now': invoke<TeamStatus>()(z.object({ project: absolutePath, confirmDeletions: z.boolean().optional() }).strict()),
  'team:list-deleted': invoke<DeletedTeamFile[]>()(z.object({ project: absolutePath }).strict()),
  /** What is still deleted, and the MEMORY.md line a full team index left out (docs/memory.md#memory-index), if it did. */
  'team:restore-deleted': invoke<{ deleted: DeletedTeamFile[]; indexSkipped?: IndexLineSkipped }>()(z.object({ project: absolutePath, key: z.string().min(1).max(1024) }).strict()),
  'team:read-conflict': invoke<ConflictView>()(z.object({ project: absolutePath, key: z.string().min(1).max(1024) }).strict()),
  'team:resolve-conflict': invoke<TeamStatus & { indexSkipped?: IndexLineSkipped }>()(
    z
      .object({
        project: absolutePath,
        key: z.string().min(1).max(1024),
        keep: z.enum(['mine', 'theirs', 'both', 'merged']),
        text: z.string().max(250_000).optional(),
      })
      .strict(),
  ),
  // Puts back the conflict a "keep both" of `key` resolved, while its files are as Keep both left them.
  'team:undo-keep-both': invoke<TeamStatus>()(z.object({ project: absolutePath, key: z.string().min(1).max(1024) }).strict()),
  'vault:list-files': invoke<VaultFileMeta[]>()(none),
  'vault:read-file': invoke<VaultFile>()(z.object({ path: vaultPath }).strict()),
  'vault:write-file': invoke<VaultFile>()(
    z
      .object({
        path: vaultPath,
        text: z.string().max(5_000_000),
        baseHash: z.string().nullable(),
        /** The editor's autosave: a burst of these makes one history entry (history-coalesce.ts). */
        autosave: z.boolean().optional(),
      })
      .strict(),
  ),
  'vault:create-memory': invoke<WrittenMemory>()(
    z
      .object({
        // The memory folder by its slug, or by an opened project's folder (main resolves its git root).
        projectSlug: z.string().min(1).max(260).optional(),
        project: absolutePath.optional(),
        team: z.boolean(),
        fileName: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,120}\.md$/),
        name: z.string().trim().min(1).max(200),
        description: z.string().trim().min(1).max(500),
        type: memoryTypeField,
        body: z.string().max(1_000_000),
      })
      .strict()
      .refine((input) => (input.projectSlug === undefined) !== (input.project === undefined), 'Give projectSlug or project, not both'),
  ),
  'vault:rename': invoke<VaultFileMeta>()(
    z.object({ path: vaultPath, newFileName: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,120}\.md$/) }).strict(),
  ),
  'vault:mark-reviewed': invoke<VaultFileMeta>()(z.object({ path: vaultPath }).strict()),
  'vault:delete': invoke<{ undoToken: string }>()(z.object({ path: vaultPath }).strict()),
  'vault:undo': invoke<{ restored: string; indexSkipped?: IndexLineSkipped }>()(z.object({ undoToken: z.string().min(1).max(256) }).strict()),
  'vault:search': invoke<SearchHit[]>()(
    z
      .object({
        query: z.string().max(500),
        scope: z.enum(['instructions', 'session-notes', 'project-memory', 'team-memory', 'transcript']).optional(),
        type: z.string().max(40).optional(),
        limit: z.number().int().min(1).max(200).optional(),
      })
      .strict(),
  ),
  /** The same search, one page at a time, with how many results there are in all. */
  'vault:search-page': invoke<{ hits: SearchHit[]; total: number }>()(
    z
      .object({
        query: z.string().max(500),
        scope: z.enum(['instructions', 'session-notes', 'project-memory', 'team-memory', 'transcript']).optional(),
        type: z.string().max(40).optional(),
        limit: z.number().int().min(1).max(200).optional(),
        offset: z.number().int().min(0).max(1_000_000).optional(),
      })
      .strict(),
  ),
  /** The memory table's word filter: the memories holding every word, as vault search matches them. */
  'vault:match-memories': invoke<{ query: string; paths: string[] }>()(z.object({ query: z.string().max(500) }).strict()),
  'vault:memory-index': invoke<MemoryIndexView>()(
    z.object({ projectSlug: z.string().min(1).max(260), team: z.boolean() }).strict(),
  ),
  'vault:fix-index': invoke<MemoryIndexView>()(
    z
      .object({
        projectSlug: z.string().min(1).max(260),
        team: z.boolean(),
        fix: z.enum(['add-missing', 'remove-broken']),
        target: z.string().min(1).max(300),
      })
      .strict(),
  ),
  'vault:history': invoke<HistoryVersion[]>()(z.object({ path: vaultPath }).strict()),
  /** Who made the version now on disk, and when (null when Strata has not seen it made). */
  'vault:history-current': invoke<{ author: ChangeAuthor; savedAt: string } | null>()(z.object({ path: vaultPath }).strict()),
  'vault:read-version': invoke<{ text: string; diff: string }>()(
    z.object({ path: vaultPath, hash: z.string().regex(/^[a-f0-9]{64}$/) }).strict(),
  ),
  'vault:restore': invoke<WrittenMemory>()(z.object({ path: vaultPath, hash: z.string().regex(/^[a-f0-9]{64}$/) }).strict()),
  'vault:list-deleted': invoke<{ path: string; deletedAt: string; hash: string }[]>()(none),
  'vault:health': invoke<HealthReport>()(none),
  /** "Not a secret" (user only: the agent has no path to IPC): rule id and the finding's keyed hash, never a value. */
  'secrets:list-allowances': invoke<SecretAllowanceView[]>()(none),
  /** Each scanner rule's kind of secret in words ("GitHub personal access token"), by rule id: what a refusal shows. */
  'secrets:rule-kinds': invoke<Record<string, string>>()(none),
  'secrets:allow': invoke<SecretAllowanceView[]>()(
    z
      .object({
        rule: z.string().regex(/^[a-z0-9-]{1,64}$/),
        fingerprint: z.string().regex(/^[a-f0-9]{64}$/),
        where: z.string().trim().min(1).max(300),
      })
      .strict(),
  ),
  /** The team panel's "Not a secret" on a held-back file: main re-scans it and records the one value the rule finds there. */
  'secrets:allow-in-file': invoke<SecretAllowanceView[]>()(
    z
      .object({
        path: vaultPath,
        line: z.number().int().min(1).max(10_000_000),
        column: z.number().int().min(1).max(100_000_000).optional(),
        rule: z.string().regex(/^[a-z0-9-]{1,64}$/),
        where: z.string().trim().min(1).max(300),
      })
      .strict(),
  ),
  'secrets:revoke-allowance': invoke<SecretAllowanceView[]>()(z.object({ id: z.string().uuid() }).strict()),
  /** A memory's [[name]] links (resolved or not) and its backlinks. */
  'vault:memory-links': invoke<MemoryLinks>()(z.object({ path: vaultPath }).strict()),
  /** Health's one-click fix: every problem of a kind, or only those of `paths` (the problems' paths). */
  'vault:health-fix': invoke<HealthFixResult>()(
    z.object({ kind: z.enum(healthFixKinds), paths: z.array(vaultPath).max(100_000).optional() }).strict(),
  ),
  /** Takes one Health fix back whole (its `undoToken`): each file as it was, unless changed since. */
  'vault:health-undo': invoke<HealthUndoResult>()(z.object({ undoToken: z.string().min(1).max(256) }).strict()),
  'memory:import-paste-preview': invoke<ImportPreview>()(
    z.object({ source: z.enum(['chatgpt', 'claude', 'other']), text: z.string().min(1).max(200_000) }).strict(),
  ),
  /** A folder of markdown notes, or a `.zip` of them (a Strata export included). */
  'memory:import-notes-preview': invoke<ImportPreview>()(z.object({ path: absolutePath }).strict()),
  'memory:import-write': invoke<ImportResult>()(
    z.object({ project: absolutePath, team: z.boolean(), items: z.array(importItem).min(1).max(2000) }).strict(),
  ),
  /** A project's memory (or, without `project`, the whole vault's): a zip as base64, or one markdown document. */
  'memory:export': invoke<{ fileName: string; base64?: string; text?: string }>()(
    z.object({ project: absolutePath.optional(), format: z.enum(['zip', 'markdown']) }).strict(),
  ),
  /** How recall used each memory, by vault-relative path (docs/memory.md#provenance-and-use). */
  'memory:usage': invoke<MemoryUsage>()(none),
  /** Memories moved by copy-then-delete (the memory table's move, or its Undo): their use counts go along. */
  'memory:usage-move': invoke<{ moved: number }>()(
    z.object({ moves: z.array(z.object({ from: vaultPath, to: vaultPath }).strict()).max(1000) }).strict(),
  ),
  /** The project's consolidation changeset waiting in the Inbox (null: none). */
  'memory:consolidation-get': invoke<ConsolidationChangeset | null>()(z.object({ project: absolutePath }).strict()),
  /** "Tidy memory now": one pass without the time and session gates. */
  'memory:consolidation-run': invoke<{ outcome: string; changeset: ConsolidationChangeset | null }>()(z.object({ project: absolutePath }).strict()),
  'memory:consolidation-resolve': invoke<ConsolidationChangeset>()(
    z
      .object({
        project: absolutePath,
        id: z.string().min(1).max(64),
        accept: z.array(z.string().min(1).max(64)).max(500),
        reject: z.array(z.string().min(1).max(64)).max(500),
      })
      .strict(),
  ),
  /** `indexSkipped`: the memory came back, but a full MEMORY.md left its line out (docs/memory.md#memory-index). */
  'memory:consolidation-undo': invoke<ConsolidationChangeset & { indexSkipped?: IndexLineSkipped }>()(
    z.object({ project: absolutePath, id: z.string().min(1).max(64), itemId: z.string().min(1).max(64) }).strict(),
  ),
} satisfies Record<string, InvokeDef<z.ZodType, unknown>>;

export const eventChannels = {
  'settings:did-change': event<Settings>(),
  'project:did-change-list': event<Project[]>(),
  'vault:did-change-root': event<VaultRootInfo>(),
  'vault:did-change-state': event<{ root: string; state: VaultState }>(),
  'vault:did-change-files': event<VaultChange[]>(),
  'chat:did-update': event<ChatUpdate>(),
  'notes:did-change': event<SessionNotes>(),
  'team:did-change-status': event<TeamStatus>(),
  'chat:did-stream': event<ChatDelta>(),
  'chat:did-request-permission': event<PermissionRequest>(),
  'chat:did-change-sessions': event<{ project: string; sessions: SessionSummary[] }>(),
  'memory:did-change-proposals': event<{ project: string; proposals: MemoryProposal[] }>(),
  'memory:did-change-consolidation': event<{ project: string; changeset: ConsolidationChangeset | null }>(),
} satisfies Record<string, EventDef<unknown>>;

export type InvokeChannel = keyof typeof invokeChannels;
export type EventChannel = keyof typeof eventChannels;

export type RequestOf<C extends InvokeChannel> = z.input<(typeof invokeChannels)[C]['request']>;
export type ParsedRequestOf<C extends InvokeChannel> = z.output<(typeof invokeChannels)[C]['request']>;
export type ResponseOf<C extends InvokeChannel> =
  (typeof invokeChannels)[C] extends InvokeDef<z.ZodType, infer R> ? R : never;
export type PayloadOf<E extends EventChannel> = (typeof eventChannels)[E] extends EventDef<infer P> ? P : never;

export const invokeChannelNames = Object.keys(invokeChannels) as InvokeChannel[];
export const eventChannelNames = Object.keys(eventChannels) as EventChannel[];

/** The API the renderer sees as `window.strata` (Electron) or builds over WebSocket (host). */
export interface StrataApi {
  invoke: { [C in InvokeChannel]: (request: RequestOf<C>) => Promise<Result<ResponseOf<C>>> };
  on: { [E in EventChannel]: (listener: (payload: PayloadOf<E>) => void) => () => void };
}
