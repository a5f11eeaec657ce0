import path from 'node:path';
import type { ConflictView, TeamStatus } from '../../../common/domain/team.js';
import type { ConflictTexts } from './conflict-desk.js';
import type { TeamSyncStatus } from './sync-types.js';

export interface TeamStatusContext {
  project: string;
  vaultRoot: string;
  teamDir: string;
  repo: string | null;
  repoProblem: string | null;
  serverUrl: string | null;
  signedIn: boolean;
  account: string | null;
  /** Off for the project (settings `teamSync: false`). */
  enabled: boolean;
}

/** The engine's status as the renderer's `TeamStatus` (common/domain/team.ts, `team:did-change-status`). */
export function toTeamStatus(ctx: TeamStatusContext, status: TeamSyncStatus | null): TeamStatus {
  const rel = (key: string) => path.relative(ctx.vaultRoot, path.join(ctx.teamDir, ...key.split('/'))).split(path.sep).join('/');
  return {
    project: ctx.project,
    repo: ctx.repo,
    repoProblem: ctx.repoProblem,
    serverUrl: ctx.serverUrl,
    signedIn: ctx.signedIn,
    account: ctx.account,
    phase: !ctx.enabled || !ctx.repo || !ctx.serverUrl || !ctx.signedIn ? 'disabled' : (status?.phase ?? 'synced'),
    progress: status?.progress ?? null,
    pending: status?.pending ?? 0,
    conflicts: status?.conflicts ?? [],
    blocked: (status?.blocked ?? []).map((b) => ({ key: b.key, path: rel(b.key), rule: b.rule, line: b.line, findings: b.findings })),
    tooLarge: status?.tooLarge ?? [],
    invalidNames: (status?.invalidNames ?? []).map((n) => ({ key: n.key, path: rel(n.key), reason: n.reason })),
    failed: (status?.failed ?? []).map((f) => ({ ...f, path: rel(f.key) })),
    heldDeletions: status?.heldDeletions ?? [],
    lastSyncAt: status?.lastSyncAt ?? null,
    error: status?.error?.message ?? null,
  };
}

/** The three-way view's payload (`team:read-conflict`). */
export function toConflictView(ctx: Pick<TeamStatusContext, 'vaultRoot' | 'teamDir'> & { account: string | null }, texts: ConflictTexts): ConflictView {
  const file = path.join(ctx.teamDir, ...texts.key.split('/'));
  return { ...texts, path: path.relative(ctx.vaultRoot, file).split(path.sep).join('/'), you: ctx.account };
}
