import { promises as fs } from 'node:fs';
import path from 'node:path';
import { ProjectPaths, assertSessionId } from '../paths/index.js';

export { findGitRoot } from '../paths/index.js';

/** The index file of a memory folder (docs/memory.md#auto-memory). */
export { INDEX_FILE_NAME } from '../../../common/memory-file/index.js';

/** `projects/<slug(git root, or the folder)>/memory` under the vault (docs/memory.md#where-things-live, docs/memory.md#auto-memory): worktrees share it. */
export async function memoryDirFor(vaultRoot: string, projectDir: string): Promise<string> {
  return (await ProjectPaths.resolve(vaultRoot, projectDir)).memoryDir;
}

/** Creates the memory folder if missing (docs/memory.md#auto-memory: created when the agent starts) and returns its real path. */
export async function ensureMemoryDir(memoryDir: string): Promise<string> {
  await fs.mkdir(memoryDir, { recursive: true, mode: 0o700 });
  return fs.realpath(memoryDir);
}

/** Per-session app state (cursors) in `<vault>/.strata/sessions/<id>.json`, shared by engines, each under its own key. */
export function sessionStateFile(vaultRoot: string, sessionId: string): string {
  assertSessionId(sessionId);
  return path.join(vaultRoot, '.strata', 'sessions', `${sessionId}.json`);
}
