import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isValidRepo } from './team-key.js';

/** Why no repository could be found, with the sentence the user sees (docs/memory.md#team-sync). */
export interface RepoProblem {
  code: 'no_repo';
  message: string;
}

export type RepoDetection = { ok: true; repo: string; source: 'setting' | 'remote'; remote?: string } | { ok: false; error: RepoProblem };

const HOW_TO_SET =
  'set Repository (owner/name) under Settings › This project (the teamRepo setting), or give the git repository a remote such as git@github.com:owner/name.git';

/**
 * `owner/name` from a remote URL: the last two path segments with `.git` stripped. Handles
 * `git@host:owner/name.git`, `ssh://git@host[:port]/owner/name`, `https://host/owner/name.git` and
 * plain paths. Null when the URL has fewer than two segments or a segment the server would refuse.
 */
export function repoFromRemoteUrl(url: string): string | null {
  let pathPart = url.trim();
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(pathPart);
  if (scheme) {
    try {
      pathPart = new URL(pathPart).pathname;
    } catch {
      return null;
    }
  } else {
    // scp-like syntax `user@host:path` (git's rule: a colon before any slash).
    const colon = pathPart.indexOf(':');
    const slash = pathPart.indexOf('/');
    if (colon > 0 && (slash === -1 || colon < slash)) pathPart = pathPart.slice(colon + 1);
  }
  const segments = pathPart.split('/').filter((s) => s.length > 0);
  if (segments.length < 2) return null;
  const owner = segments[segments.length - 2]!;
  const name = segments[segments.length - 1]!.replace(/\.git$/, '');
  const repo = `${owner}/${name}`;
  return isValidRepo(repo) ? repo : null;
}

/** The `[remote "x"] url = …` pairs of a git config file, in file order. */
export function parseGitRemotes(config: string): { name: string; url: string }[] {
  const remotes: { name: string; url: string }[] = [];
  let current: string | null = null;
  for (const raw of config.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('#') || line.startsWith(';') || line === '') continue;
    const section = /^\[\s*remote\s+"((?:[^"\\]|\\.)*)"\s*\]/.exec(line);
    if (section) {
      current = section[1]!.replace(/\\(.)/g, '$1');
      continue;
    }
    if (line.startsWith('[')) {
      current = null;
      continue;
    }
    const kv = /^url\s*=\s*(.*)$/i.exec(line);
    if (current !== null && kv && !remotes.some((r) => r.name === current)) {
      remotes.push({ name: current, url: kv[1]!.replace(/^"(.*)"$/, '$1').trim() });
    }
  }
  return remotes;
}

/**
 * The config file of the repository containing `dir`, found by walking up to `.git`. A worktree's (or
 * submodule's) `.git` file points at its git dir; a worktree's git dir names the main one in `commondir`.
 */
export async function findGitConfig(dir: string): Promise<string | null> {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const dotGit = path.join(current, '.git');
    const stat = await fs.stat(dotGit).catch(() => null);
    if (stat?.isDirectory()) return path.join(dotGit, 'config');
    if (stat?.isFile()) {
      const pointer = /^gitdir:\s*(.+)$/m.exec(await fs.readFile(dotGit, 'utf8'));
      if (!pointer) return null;
      const gitDir = path.resolve(current, pointer[1]!.trim());
      const common = await fs.readFile(path.join(gitDir, 'commondir'), 'utf8').catch(() => null);
      return path.join(common ? path.resolve(gitDir, common.trim()) : gitDir, 'config');
    }
    if (path.dirname(current) === current) return null;
  }
}

/**
 * The team repository of a project in docs/architecture.md's order ("`teamRepo` where the git remote gives
 * none"): the git remote (`origin`, else the first remote) wins; the `teamRepo` setting is used only
 * when the project has no git repository, no remote, or a remote without `owner/name`. Neither → the
 * remote's problem, which says how to set one. Reads files only; no git binary.
 */
export async function detectTeamRepo(projectDir: string, teamRepoSetting?: string | null): Promise<RepoDetection> {
  const fromRemote = await detectFromRemote(projectDir);
  if (fromRemote.ok || !teamRepoSetting) return fromRemote;
  if (isValidRepo(teamRepoSetting)) return { ok: true, repo: teamRepoSetting, source: 'setting' };
  return { ok: false, error: { code: 'no_repo', message: `the teamRepo setting "${teamRepoSetting}" is not owner/name` } };
}

async function detectFromRemote(projectDir: string): Promise<RepoDetection> {
  const configFile = await findGitConfig(projectDir);
  const text = configFile ? await fs.readFile(configFile, 'utf8').catch(() => null) : null;
  if (text === null) {
    return { ok: false, error: { code: 'no_repo', message: `${projectDir} is not in a git repository: ${HOW_TO_SET}` } };
  }
  const remotes = parseGitRemotes(text);
  const chosen = remotes.find((r) => r.name === 'origin') ?? remotes[0];
  if (!chosen) return { ok: false, error: { code: 'no_repo', message: `the git repository has no remote: ${HOW_TO_SET}` } };
  const repo = repoFromRemoteUrl(chosen.url);
  if (!repo) {
    return { ok: false, error: { code: 'no_repo', message: `cannot read owner/name from remote "${chosen.name}" (${chosen.url.replace(/\/\/[^@/]*@/, '//')}): ${HOW_TO_SET}` } };
  }
  return { ok: true, repo, source: 'remote', remote: chosen.name };
}
