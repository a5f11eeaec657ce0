import { promises as fs } from 'node:fs';
import path from 'node:path';
import { ProjectPaths, assertSessionId } from '../paths/index.js';

export { findGitRoot } from '../paths/index.js';

/** The index file of a memory folder (SPEC §4). */
export { INDEX_FILE_NAME } from '../../../common/memory-file/index.js';

/** `projects/<slug(git root, or the folder)>/memory` under the vault (SPEC §0, §4): worktrees share it. */
export async function memoryDirFor(vaultRoot: string, projectDir: string): Promise<string> {
  return (await ProjectPaths.resolve(vaultRoot, projectDir)).memoryDir;
}

/** Creates the memory folder if missing (SPEC §4: created when the agent starts) and returns its real path. */
export async function ensureMemoryDir(memoryDir: string): Promise<string> {
  await fs.mkdir(memoryDir, { recursive: true, mode: 0o700 });
  return fs.realpath(memoryDir);
}

/** Per-session app state (cursors) in `<vault>/.strata/sessions/<id>.json`, shared by engines, each under its own key. */
export function sessionStateFile(vaultRoot: string, sessionId: string): string {
  assertSessionId(sessionId);
  return path.join(vaultRoot, '.strata', 'sessions', `${sessionId}.json`);
}
