import { promises as fs } from 'node:fs';
import { AppFailure } from '../../../common/result.js';
import { controlCharacterProblem } from '../../../common/paths/control-characters.js';
import type { ChangeAuthor, VaultFile, VaultFileMeta } from '../../../common/domain/vault.js';
import { writeFileAtomic } from '../fs/index.js';
import { AUTOSAVE_REASON } from './history-coalesce.js';
import { decodeText, sha256 } from './file-scan.js';
import { parseMarkdown } from './markdown-view.js';
import type { VaultContext } from './vault-context.js';
import { classifyVaultPath, hasHistory, isMemoryFile, PROJECTS_PREFIX } from './vault-paths.js';

/**
 * Writes one vault file atomically. `baseHash` is the hash the caller's text was based on (null: the
 * file must not exist yet); a mismatch is a `conflict`, so an edit made meanwhile is never overwritten.
 * A memory file's previous content is snapshotted first.
 */
export async function writeVaultFile(vault: VaultContext, rel: string, text: string, options: { baseHash?: string | null; reason?: string; author?: ChangeAuthor }): Promise<VaultFile> {
  vault.assertUsable();
  const abs = vault.resolve(rel);
  const location = classifyVaultPath(rel);
  if (!location) throw new AppFailure('invalid_request', `${rel} is not a vault file`);
  if (location.scope === 'transcript') throw new AppFailure('unsupported', 'Transcripts are written by the chat, not edited in the vault');
  let current: Buffer | null = null;
  try {
    current = await fs.readFile(abs);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') throw new AppFailure('permission_denied', `${rel} cannot be read, so it is not written over (${code})`);
  }
  // A new file's name is checked (docs/memory.md#write-sandbox); one already there stays editable.
  const badName = current ? null : controlCharacterProblem(rel);
  if (badName) throw new AppFailure('invalid_request', `${JSON.stringify(rel)} cannot be a file name: it ${badName}`);
  if (options.baseHash !== undefined) {
    const currentHash = current ? sha256(current) : null;
    if (currentHash !== options.baseHash) {
      throw new AppFailure(
        'conflict',
        current ? `${rel} changed on disk since it was opened; nothing was written` : `${rel} no longer exists on disk; nothing was written`,
      );
    }
  }
  if (current && (current.length > vault.cfg().maxFileBytes || decodeText(current) === null)) {
    throw new AppFailure('unsupported', `${rel} is binary or too large; it is not written over`);
  }
  // Whoever writes here is the user (an edit, a fix) unless the caller says otherwise (a restore).
  const author = options.author ?? { kind: 'you' };
  const reason = options.reason ?? 'edit';
  if (current && hasHistory(location.scope)) {
    await vault.history.snapshotBeforeWrite(rel, current, reason, { author, coalesce: reason === 'edit' || reason === AUTOSAVE_REASON });
  }
  const hash = sha256(text);
  // A project's CLAUDE.md linking to another file in the project (AGENTS.md, say) is written through
  // and stays a link; `resolve` checked that the target is inside the project.
  const target = rel.startsWith(`${PROJECTS_PREFIX}/`) ? await fs.realpath(abs).catch(() => abs) : abs;
  vault.own.expectWrite(rel, hash, current ? 'changed' : 'added');
  try {
    // docs/memory.md#session-notes: session notes are private to the user (file 0600, folder 0700).
    const mode = location.scope === 'session-notes' ? 0o600 : 0o644;
    await writeFileAtomic(target, text, { mode, dirMode: location.scope === 'session-notes' ? 0o700 : 0o755 });
  } catch (error) {
    vault.own.cancelWrite(rel, hash);
    throw new AppFailure('io_error', `${rel} could not be written: ${(error as Error).message}`);
  }
  if (!current) await vault.history.markPresent(rel);
  if (hasHistory(location.scope)) await vault.history.recordHead(rel, hash, author);
  const doc = await vault.refresh(rel);
  return fileView(doc!.meta, text);
}

/** A file as the renderer gets it: text, frontmatter (read by the one memory-file reader), hash. */
export function fileView(meta: VaultFileMeta, text: string): VaultFile {
  const parsed = rel2md(meta.path) ? parseMarkdown(text, isMemoryFile(meta.path, meta.scope)) : null;
  return {
    meta,
    text,
    frontmatter: parsed?.frontmatter ?? null,
    frontmatterError: parsed?.frontmatterError ?? null,
    body: parsed?.body ?? text,
    hash: sha256(text),
  };
}

const rel2md = (rel: string) => rel.endsWith('.md');
