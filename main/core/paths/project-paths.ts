import { promises as fs } from 'node:fs';
import path from 'node:path';
import { findGitRoot } from './git-root.js';
import { migrateLegacyProjectFolder } from './legacy-folder.js';
import { slug } from './slug.js';

/** Session ids become file and folder names: one safe path segment only. */
export function isValidSessionId(sessionId: string): boolean {
  return /^[A-Za-z0-9._-]{1,128}$/.test(sessionId) && sessionId !== '.' && sessionId !== '..';
}

export function assertSessionId(sessionId: string): void {
  if (!isValidSessionId(sessionId)) throw new Error(`invalid session id: ${JSON.stringify(sessionId)}`);
}

/**
 * Where one opened folder's data lives in the vault (docs/memory.md#where-things-live, docs/architecture.md#data-on-disk): transcripts
 * and session notes under `projects/<slug(opened folder)>/`, memory under
 * `projects/<slug(git root, or the opened folder)>/memory/`, so worktrees share memory.
 */
export class ProjectPaths {
  private constructor(
    readonly vaultRoot: string,
    /** The opened folder's real path. */
    readonly projectDir: string,
    /** The git root's real path, or null when the folder is not in a repository. */
    readonly gitRoot: string | null,
  ) {}

  /** Resolves real paths once; a folder that does not exist keeps its resolved path. */
  static async resolve(vaultRoot: string, openedFolder: string): Promise<ProjectPaths> {
    const resolved = path.resolve(openedFolder);
    const real = await fs.realpath(resolved).catch(() => resolved);
    const paths = new ProjectPaths(path.resolve(vaultRoot), real, await findGitRoot(real));
    // A failed move leaves the old folder where it was: the project opens under the current name anyway.
    for (const folder of new Set([paths.projectDir, paths.gitRoot ?? paths.projectDir])) {
      await migrateLegacyProjectFolder(paths.vaultRoot, folder).catch(() => undefined);
    }
    return paths;
  }

  /** `slug(opened folder)`: the key of transcripts and session notes. */
  get projectSlug(): string {
    return slug(this.projectDir);
  }

  /** `slug(git root ?? opened folder)`: the key of `memory/`. */
  get memorySlug(): string {
    return slug(this.gitRoot ?? this.projectDir);
  }

  /** `<vault>/projects/<slug(opened)>/` — the folder of this project's transcripts. */
  get transcriptsDir(): string {
    return path.join(this.vaultRoot, 'projects', this.projectSlug);
  }

  transcriptFile(sessionId: string): string {
    assertSessionId(sessionId);
    return path.join(this.transcriptsDir, `${sessionId}.jsonl`);
  }

  /** `<sessionId>/` next to the transcript: the session's own folder (notes live in it). */
  sessionDir(sessionId: string): string {
    assertSessionId(sessionId);
    return path.join(this.transcriptsDir, sessionId);
  }

  /** docs/memory.md#session-notes: `projects/<slug>/<sessionId>/session-memory/summary.md`. */
  sessionNotesFile(sessionId: string): string {
    return path.join(this.sessionDir(sessionId), 'session-memory', 'summary.md');
  }

  /** docs/memory.md#auto-memory: `projects/<slug(git root)>/memory/`. */
  get memoryDir(): string {
    return path.join(this.vaultRoot, 'projects', this.memorySlug, 'memory');
  }

  /** docs/memory.md#team-memory: `projects/<slug(git root)>/memory/team/`. */
  get teamMemoryDir(): string {
    return path.join(this.memoryDir, 'team');
  }
}
