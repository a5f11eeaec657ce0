import type { VaultFile } from '../../../common/domain/vault';
import type { AppError } from '../../../common/result';
import { merge3 } from '../../../common/text/merge3';
import { useStore } from '../store';
import { api } from './index';

/**
 * Autosave for the vault editor, like a notes app: a save shortly after typing stops, at once on
 * navigation, on switching view and when the page goes away; a failed save keeps the text and retries.
 * Every save carries the hash of the version the text was based on, so a change made on disk meanwhile
 * is merged (three-way, common/text/merge3) instead of written over; overlapping changes are shown side
 * by side (`externalVersion`).
 *
 * The edit waiting to be saved lives here, not only in the store: navigating clears the store's draft,
 * and the save must still happen.
 */
export const AUTOSAVE_DELAY_MS = 600;
const RETRY_FIRST_MS = 2_000;
const RETRY_MAX_MS = 30_000;

interface Job {
  path: string;
  text: string;
  /** The saved version the text was based on, for when the file is no longer the open one. */
  base: VaultFile;
}

let job: Job | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;
let inflight: Promise<boolean> | null = null;
/** The job being written right now and its text's hash, so a save sent while it is in flight is based on it. */
let inflightJob: Job | null = null;
let inflightHash: string | null = null;
let retryMs = RETRY_FIRST_MS;

const state = () => useStore.getState();

/** The version a job's text is based on: the open file when it is the same one (it moves with each save). */
function baseOf(j: Job): VaultFile {
  const open = state().open;
  return open && open.meta.path === j.path ? open : j.base;
}

/** The editor's text changed: keep it as the draft and save it shortly. */
export function editDraft(text: string): void {
  const s = state();
  if (!s.open) return;
  s.setDraft(text);
  // While both versions are shown side by side, the user's choice saves (or leaving the file does).
  if (s.externalVersion) return;
  job = { path: s.open.meta.path, text, base: s.open };
  if (s.saveState.kind !== 'failed') s.setSaveState({ kind: 'pending' });
  schedule(AUTOSAVE_DELAY_MS);
}

function schedule(ms: number): void {
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = null;
    void saveNow();
  }, ms);
}

/**
 * Saves what is waiting now (Ctrl+S, navigation), after any save in flight. Resolves true when the
 * text is on disk, false when it is kept for a retry or shown beside a change on disk.
 */
export async function saveNow(): Promise<boolean> {
  if (timer) {
    clearTimeout(timer);
    timer = null;
  }
  while (inflight) await inflight;
  const next = job;
  if (!next) return true;
  job = null;
  inflightJob = next;
  inflight = write(next).finally(() => {
    inflight = null;
    inflightJob = null;
    inflightHash = null;
  });
  return inflight;
}

async function write(j: Job): Promise<boolean> {
  const base = baseOf(j);
  if (j.text === base.text) return settle(j, base);
  state().setSaveState({ kind: 'saving' });
  void sha256Hex(j.text).then((hash) => {
    if (inflightJob === j) inflightHash = hash;
  });
  const result = await api.invoke['vault:write-file']({ path: j.path, text: j.text, baseHash: base.hash, autosave: true });
  if (result.ok) return settle(j, result.value);
  if (result.error.code === 'conflict') return mergeWithDisk(j, base);
  return failed(j, result.error);
}

/** The text is on disk as `saved`: the open file moves to it, and the draft goes if nothing was typed since. */
function settle(j: Job, saved: VaultFile): boolean {
  const s = state();
  retryMs = RETRY_FIRST_MS;
  if (s.open?.meta.path === j.path) {
    s.setSaved(saved);
    if (s.draft === j.text) s.setDraft(null);
  }
  if (!job) s.setSaveState({ kind: 'saved' });
  return true;
}

/** Keeps the text (a newer edit wins) and tries again later, saying why it could not be saved. */
function failed(j: Job, error: AppError): boolean {
  job ??= j;
  const gone = error.code === 'not_found';
  state().setSaveState({
    kind: 'failed',
    message: `Not saved yet: ${error.message}. Your text is kept here${gone ? '.' : ' and Strata keeps trying.'}`,
    retryInMs: gone ? null : retryMs,
  });
  if (!gone) {
    schedule(retryMs);
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  }
  return false;
}

/**
 * The file changed on disk since the text's base version. Both edits are merged when they touch
 * different lines; otherwise the two versions are shown side by side and nothing is written.
 */
async function mergeWithDisk(j: Job, base: VaultFile): Promise<boolean> {
  const fresh = await api.invoke['vault:read-file']({ path: j.path });
  if (!fresh.ok) {
    return failed(j, { code: 'not_found', message: `${j.path.split('/').pop()} is no longer on disk` });
  }
  const merged = merge3(base.text, j.text, fresh.value.text);
  const s = state();
  const isOpen = s.open?.meta.path === j.path;
  if (!merged.clean) {
    if (isOpen) {
      s.setOpen(fresh.value);
      s.setDraft(j.text);
      s.setExternalVersion(fresh.value);
      s.setSaveState({ kind: 'pending' });
      return false;
    }
    // The user already left the file: their text is saved over the other change, which History keeps.
    return writeOver(j.path, j.text, fresh.value, 'The file had changed on disk; your version is saved and the other one is in History.');
  }
  const saved = await api.invoke['vault:write-file']({ path: j.path, text: merged.text, baseHash: fresh.value.hash, autosave: true });
  if (!saved.ok) return saved.error.code === 'conflict' ? mergeWithDisk({ ...j, text: merged.text }, fresh.value) : failed(j, saved.error);
  if (isOpen && state().open?.meta.path === j.path) {
    const typedSince = state().draft !== null && state().draft !== j.text ? state().draft! : null;
    state().setOpen(saved.value);
    if (typedSince !== null) rebaseDraft(j.text, typedSince, saved.value);
    else state().setDraft(null);
  }
  if (!job) state().setSaveState({ kind: 'saved' });
  return true;
}

/** Text typed while a merge was being saved is merged onto the saved result too. */
function rebaseDraft(sent: string, typed: string, saved: VaultFile): void {
  const again = merge3(sent, typed, saved.text);
  if (again.clean) {
    editDraft(again.text);
  } else {
    state().setDraft(typed);
    state().setExternalVersion(saved);
  }
}

async function writeOver(path: string, text: string, current: VaultFile, note: string): Promise<boolean> {
  const saved = await api.invoke['vault:write-file']({ path, text, baseHash: current.hash });
  if (!saved.ok) return failed({ path, text, base: current }, saved.error);
  state().showToast({ text: note });
  if (!job) state().setSaveState({ kind: 'saved' });
  return true;
}

/**
 * The user chose in the side-by-side view: `mine` saves the (possibly edited) left side over the
 * version on disk, `theirs` drops the edit and shows the version on disk.
 */
export async function resolveExternal(choice: 'mine' | 'theirs'): Promise<void> {
  const s = state();
  const theirs = s.externalVersion;
  if (!theirs) return;
  const mine = s.draft ?? theirs.text;
  s.setExternalVersion(null);
  s.setOpen(theirs);
  if (choice === 'theirs') {
    job = null;
    s.setDraft(null);
    s.setSaveState({ kind: 'saved' });
    return;
  }
  editDraft(mine);
  await saveNow();
}

/**
 * Leaving a file (another file, another panel or view): save what waits now. With both versions shown
 * side by side (`before`: the state before the navigation cleared them), the left side — the user's —
 * is saved, and the one on disk stays in History.
 */
export function flushOnLeave(before: { externalVersion: VaultFile | null; draft: string | null }): Promise<boolean> {
  const theirs = before.externalVersion;
  if (theirs && before.draft !== null) {
    const s = state();
    if (s.externalVersion?.hash === theirs.hash) s.setExternalVersion(null);
    return writeOver(theirs.meta.path, before.draft, theirs, 'Your version is saved; the one that changed on disk is in History.');
  }
  return saveNow();
}

/**
 * The open file changed on disk (the agent, the extractor, a pull, another editor). Without unsaved
 * text the new version is shown; with it, both edits are merged when they touch different lines, else
 * shown side by side. Nothing is written over silently.
 */
export async function onDiskChange(fresh: VaultFile): Promise<void> {
  while (inflight) await inflight;
  const s = state();
  const open = s.open;
  if (!open || open.meta.path !== fresh.meta.path || fresh.hash === open.hash) return;
  const draft = s.draft;
  if (draft === null || draft === open.text) {
    if (job?.path === fresh.meta.path) job = null;
    s.setOpen(fresh);
    s.setDraft(null);
    return;
  }
  const merged = s.externalVersion ? null : merge3(open.text, draft, fresh.text);
  s.setOpen(fresh);
  if (merged?.clean) {
    editDraft(merged.text);
    return;
  }
  if (job?.path === fresh.meta.path) job = null;
  s.setDraft(draft);
  s.setExternalVersion(fresh);
  s.setSaveState({ kind: 'pending' });
}

/** The file was deleted while unsaved text was on screen: write the text as the file again. */
export async function saveAsNewFile(): Promise<void> {
  const s = state();
  if (!s.open || s.draft === null) return;
  const result = await api.invoke['vault:write-file']({ path: s.open.meta.path, text: s.draft, baseHash: null });
  if (!result.ok) {
    failed({ path: s.open.meta.path, text: s.draft, base: s.open }, result.error);
    return;
  }
  job = null;
  s.setSaved(result.value);
  s.setDraft(null);
  s.setSaveState({ kind: 'saved' });
}

/**
 * The page is going away (tab closed, reload, window quit): send the waiting save at once, without
 * awaiting anything, so the frame leaves before the socket closes. Based on the text in flight when
 * there is one (its hash is known by then), else on the open version.
 */
export function sendNowOnPageHide(): void {
  if (timer) {
    clearTimeout(timer);
    timer = null;
  }
  const s = state();
  const text = s.externalVersion && s.draft !== null ? s.draft : job?.text;
  const path = s.externalVersion ? s.externalVersion.meta.path : job?.path;
  if (text === undefined || path === undefined) return;
  const baseHash = s.externalVersion ? s.externalVersion.hash : inflight && inflightHash ? inflightHash : baseOf(job!).hash;
  job = null;
  void api.invoke['vault:write-file']({ path, text, baseHash, autosave: true });
}

async function sha256Hex(text: string): Promise<string | null> {
  if (!globalThis.crypto?.subtle) return null;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Wires the triggers: leaving a file, panel or view saves; the page hidden saves (a closed tab fires
 * `visibilitychange` first, while the socket is still open); `pagehide`/`beforeunload` send what is left.
 */
export function wireAutosave(): () => void {
  const unsubscribe = useStore.subscribe((now, before) => {
    if (now.selectedPath !== before.selectedPath || now.panel !== before.panel || now.view !== before.view) void flushOnLeave(before);
  });
  const onHidden = () => {
    if (document.visibilityState === 'hidden') void saveNow();
  };
  const onLeave = () => sendNowOnPageHide();
  document.addEventListener('visibilitychange', onHidden);
  window.addEventListener('pagehide', onLeave);
  window.addEventListener('beforeunload', onLeave);
  return () => {
    unsubscribe();
    document.removeEventListener('visibilitychange', onHidden);
    window.removeEventListener('pagehide', onLeave);
    window.removeEventListener('beforeunload', onLeave);
  };
}
