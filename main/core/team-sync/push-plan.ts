import type { LocalTree } from './local-tree.js';
import type { SyncState } from './sync-state.js';
import type { BlockedKey, SecretFinding, SecretScan } from './sync-types.js';

/** One push attempt's delta, from the local tree, the bases and the server hashes as last seen. */
export interface PushPlan {
  /** Key → text to upload, or null to delete (docs/memory.md#team-memory PUT body). */
  upload: Record<string, string | null>;
  /** Both sides already agree: record the base, transfer nothing (docs/sync-protocol.md#a-client-that-loses-nothing). */
  agreed: Record<string, string | null>;
  blocked: BlockedKey[];
  tooLarge: string[];
  /** Keys held back by the learned entry limit. */
  overLimit: string[];
  /** The server changed a key we changed too (or deleted/edited it): pull before pushing. */
  needsPull: boolean;
}

/**
 * The decision table's push half (docs/sync-protocol.md#a-client-that-loses-nothing): only keys changed locally since their base
 * and different from the server's hash; never a conflicted key; never over the size limit; never a
 * file with a secret finding (docs/memory.md#team-memory). A key whose server copy also moved since the base is not
 * uploaded — that would be the reference's "local wins" loss — but sent to the pull to decide.
 * `refused` keys were refused by the server during this run and wait, so the others still go.
 */
export function planPush(state: SyncState, local: LocalTree, scan: SecretScan, maxFileBytes: number, refused: ReadonlySet<string> = new Set()): PushPlan {
  const plan: PushPlan = { upload: {}, agreed: {}, blocked: [], tooLarge: [], overLimit: [], needsPull: false };
  const keys = [...new Set([...local.keys(), ...Object.keys(state.bases)])].sort();
  for (const key of keys) {
    if (state.conflicts[key] || refused.has(key)) continue;
    const file = local.get(key);
    // Only a path that is truly gone is a deletion: a file this device does not sync (a dot-file, a
    // name it cannot hold) is still there, and deleting it from the server would delete it for all.
    if (!file && local.isIgnored(key)) continue;
    const mine = file?.hash ?? null;
    const base = state.bases[key] ?? null;
    const remote = state.remote[key] ?? null;
    if (mine === base) continue;
    if (file) {
      if (file.bytes > maxFileBytes) {
        plan.tooLarge.push(key);
        continue;
      }
      const findings = secretFindings(scan, file.text);
      if (findings.length > 0) {
        plan.blocked.push({ key, rule: findings[0]!.rule, line: findings[0]!.line, findings });
        continue;
      }
      if (mine === remote) plan.agreed[key] = file.text;
      else if (remote !== base) plan.needsPull = true;
      else plan.upload[key] = file.text;
    } else if (remote === base) {
      plan.upload[key] = null;
    } else if (remote === null) {
      plan.agreed[key] = null;
    } else {
      plan.needsPull = true;
    }
  }
  return plan;
}

/**
 * How long a limit learned from a 413 is trusted. The reference keeps it for one session (it lives in
 * memory); ours is persisted, so it needs an end of its own, or a server whose limit was raised would
 * never get the held-back files. After it, one PUT tries the full set; a 413 teaches the limit again.
 */
export const entryLimitTtlMs = 24 * 3_600_000;

/** Forgets a learned entry limit older than `entryLimitTtlMs` (or of unknown age). */
export function expireEntryLimit(state: SyncState, now: number): void {
  if (state.maxEntries === null) return;
  const learnedAt = state.maxEntriesLearnedAt ? Date.parse(state.maxEntriesLearnedAt) : NaN;
  if (now - learnedAt < entryLimitTtlMs) return;
  state.maxEntries = null;
  state.maxEntriesLearnedAt = null;
}

/**
 * Holds back new keys the server would refuse (a 413 taught `maxEntries`): the count after the PUT is
 * what the server checks. Held-back keys stay pending and are reported, never dropped silently. A server
 * seen holding more entries than the limit has had it raised: the limit is forgotten at once.
 */
export function applyEntryLimit(plan: PushPlan, state: SyncState): void {
  if (state.maxEntries === null) return;
  let count = Object.keys(state.remote).length;
  if (count > state.maxEntries) {
    state.maxEntries = null;
    state.maxEntriesLearnedAt = null;
    return;
  }
  for (const [key, value] of Object.entries(plan.upload)) {
    if (value === null && key in state.remote) count--;
  }
  for (const key of Object.keys(plan.upload).sort()) {
    if (plan.upload[key] === null || key in state.remote) continue;
    if (count < state.maxEntries) count++;
    else {
      plan.overLimit.push(key);
      delete plan.upload[key];
    }
  }
}

/** Every finding by line, one per rule and line (the scanner may match one line at several columns). */
function secretFindings(scan: SecretScan, text: string): SecretFinding[] {
  const seen = new Set<string>();
  const out: SecretFinding[] = [];
  // Two values of one rule on one line are two findings: each gets its own "Not a secret".
  for (const { rule, line, column } of scan(text)) {
    const at = `${rule}\0${line}\0${column}`;
    if (seen.has(at)) continue;
    seen.add(at);
    out.push({ rule, line, ...(column === undefined ? {} : { column }) });
  }
  return out.sort((a, b) => a.line - b.line || (a.column ?? 0) - (b.column ?? 0) || a.rule.localeCompare(b.rule));
}
