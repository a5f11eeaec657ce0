import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadInstructions } from '../../../../main/core/context/claude-md-loader.js';
import { tempDir } from '../../../support/temp-dir.js';

async function write(file: string, text: string) {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
}

async function tree() {
  const root = await tempDir();
  const vault = path.join(root, 'vault');
  const outer = path.join(root, 'work');
  const project = path.join(outer, 'repo', 'pkg');
  await fs.mkdir(project, { recursive: true });
  await fs.mkdir(vault, { recursive: true });
  return { root, vault, outer, project, repo: path.join(outer, 'repo') };
}

const names = (files: { path: string }[], root: string) => files.map((f) => path.relative(root, f.path));

describe('loadInstructions (docs/memory.md#instructions)', () => {
  it('loads user, then each folder from the root down: CLAUDE.md, .claude/CLAUDE.md, sorted rules, CLAUDE.local.md', async () => {
    const { root, vault, outer, repo, project } = await tree();
    await write(path.join(vault, 'CLAUDE.md'), 'user');
    await write(path.join(outer, 'CLAUDE.md'), 'outer');
    await write(path.join(repo, 'CLAUDE.local.md'), 'repo local');
    await write(path.join(repo, 'CLAUDE.md'), 'repo');
    await write(path.join(repo, '.claude', 'CLAUDE.md'), 'repo dot');
    await write(path.join(repo, '.claude', 'rules', 'b-style.md'), 'rule b');
    await write(path.join(repo, '.claude', 'rules', 'a-tests.md'), 'rule a');
    await write(path.join(repo, '.claude', 'rules', 'notes.txt'), 'not a rule');
    await write(path.join(project, 'CLAUDE.md'), 'pkg');
    const { files, pendingApprovals } = await loadInstructions({ vaultRoot: vault, projectDir: project });
    expect(names(files, root)).toEqual([
      'vault/CLAUDE.md',
      'work/CLAUDE.md',
      'work/repo/CLAUDE.md',
      'work/repo/.claude/CLAUDE.md',
      'work/repo/.claude/rules/a-tests.md',
      'work/repo/.claude/rules/b-style.md',
      'work/repo/CLAUDE.local.md',
      'work/repo/pkg/CLAUDE.md',
    ]);
    expect(files.map((f) => f.kind)).toEqual(['user', 'project', 'project', 'project', 'project', 'project', 'local', 'project']);
    expect(files.every((f) => f.depth === 0 && f.includedFrom === null)).toBe(true);
    expect(pendingApprovals).toEqual([]);
  });

  it("loads the user's own rules after their CLAUDE.md and rules in subfolders, each in name order", async () => {
    const { root, vault, repo, project } = await tree();
    await write(path.join(vault, 'CLAUDE.md'), 'user');
    await write(path.join(vault, 'rules', 'z-last.md'), 'user rule z');
    await write(path.join(vault, 'rules', 'a', 'deep.md'), 'user rule deep');
    await write(path.join(repo, '.claude', 'rules', 'b.md'), 'rule b');
    await write(path.join(repo, '.claude', 'rules', 'a-sub', 'x.md'), 'rule sub x');
    await write(path.join(repo, '.claude', 'rules', 'c', 'd', 'y.md'), 'rule sub y');
    const { files } = await loadInstructions({ vaultRoot: vault, projectDir: project });
    expect(names(files, root)).toEqual([
      'vault/CLAUDE.md',
      'vault/rules/a/deep.md',
      'vault/rules/z-last.md',
      'work/repo/.claude/rules/a-sub/x.md',
      'work/repo/.claude/rules/b.md',
      'work/repo/.claude/rules/c/d/y.md',
    ]);
    expect(files.map((f) => f.kind)).toEqual(['user', 'user', 'user', 'project', 'project', 'project']);
  });

  it('keeps rules with paths: frontmatter out of the start and returns them with their patterns and base folder', async () => {
    const { root, vault, repo, project } = await tree();
    await write(path.join(repo, '.claude', 'rules', 'ts.md'), '---\npaths: src/**/*.ts, {a,b}/**\n---\nTypeScript rule.');
    await write(path.join(repo, '.claude', 'rules', 'all.md'), '---\npaths: "**"\n---\nEverywhere rule.');
    await write(path.join(vault, 'rules', 'docs.md'), '---\npaths:\n  - docs/**\n---\nDocs rule.');
    const { files, conditionalRules } = await loadInstructions({ vaultRoot: vault, projectDir: project });
    expect(names(files, root)).toEqual(['work/repo/.claude/rules/all.md']);
    expect(conditionalRules.map((r) => ({ ...r, path: path.relative(root, r.path), baseDir: path.relative(root, r.baseDir) }))).toEqual([
      { path: 'vault/rules/docs.md', kind: 'user', patterns: ['docs'], baseDir: 'work/repo/pkg' },
      { path: 'work/repo/.claude/rules/ts.md', kind: 'project', patterns: ['src/**/*.ts', '{a,b}'], baseDir: 'work/repo' },
    ]);
  });

  it('skips includes with a non-text extension or a trailing dot, even when they hold text', async () => {
    const { root, vault, project } = await tree();
    for (const name of ['shot.png', 'paper.pdf', 'odd.', 'notes.txt', 'Makefile']) await write(path.join(project, name), `text of ${name}`);
    await write(path.join(project, 'CLAUDE.md'), '@./shot.png @./paper.pdf @./odd. @./notes.txt @./Makefile');
    const { files } = await loadInstructions({ vaultRoot: vault, projectDir: project });
    expect(names(files, root)).toEqual(['work/repo/pkg/CLAUDE.md', 'work/repo/pkg/notes.txt', 'work/repo/pkg/Makefile']);
  });

  it('loads includes at depths 1 to 4 right after the including file and ignores depth 5', async () => {
    const { root, vault, project } = await tree();
    await write(path.join(project, 'CLAUDE.md'), 'top @./d1.md\nafter');
    for (let d = 1; d <= 5; d++) await write(path.join(project, `d${d}.md`), `depth ${d} @./d${d + 1}.md`);
    await write(path.join(project, 'CLAUDE.local.md'), 'local');
    const { files } = await loadInstructions({ vaultRoot: vault, projectDir: project });
    expect(names(files, root)).toEqual([
      'work/repo/pkg/CLAUDE.md',
      'work/repo/pkg/d1.md',
      'work/repo/pkg/d2.md',
      'work/repo/pkg/d3.md',
      'work/repo/pkg/d4.md',
      'work/repo/pkg/CLAUDE.local.md',
    ]);
    expect(files.slice(0, 5).map((f) => f.depth)).toEqual([0, 1, 2, 3, 4]);
    expect(files[2]!.includedFrom).toBe(path.join(project, 'd1.md'));
  });

  it('ends include cycles and ignores missing files and includes inside code', async () => {
    const { root, vault, project } = await tree();
    await write(path.join(project, 'CLAUDE.md'), 'a @./x.md @./missing.md\n```\n@./code.md\n```\n`@./span.md`');
    await write(path.join(project, 'x.md'), 'x @./y.md');
    await write(path.join(project, 'y.md'), 'y @./x.md @./CLAUDE.md');
    await write(path.join(project, 'code.md'), 'never');
    await write(path.join(project, 'span.md'), 'never');
    const { files } = await loadInstructions({ vaultRoot: vault, projectDir: project });
    expect(names(files, root)).toEqual(['work/repo/pkg/CLAUDE.md', 'work/repo/pkg/x.md', 'work/repo/pkg/y.md']);
  });

  it('strips HTML comments and frontmatter, skips files left empty, and does not follow includes in comments', async () => {
    const { vault, project } = await tree();
    await write(path.join(project, 'CLAUDE.md'), '---\ndescription: x\n---\n# Build\n<!-- maintainers: @./secret.md -->\nRun make.\n');
    await write(path.join(project, 'secret.md'), 'hidden');
    await write(path.join(project, '.claude', 'CLAUDE.md'), '<!-- only a comment -->\n');
    const { files } = await loadInstructions({ vaultRoot: vault, projectDir: project });
    expect(files).toHaveLength(1);
    expect(files[0]!.content).toBe('# Build\nRun make.');
  });

  it('flags files over 40,000 characters as large and keeps loading them', async () => {
    const { vault, project } = await tree();
    await write(path.join(project, 'CLAUDE.md'), 'x'.repeat(40_001));
    await write(path.join(project, 'CLAUDE.local.md'), 'y'.repeat(40_000));
    const { files } = await loadInstructions({ vaultRoot: vault, projectDir: project });
    expect(files.map((f) => [f.chars, f.large])).toEqual([
      [40_001, true],
      [40_000, false],
    ]);
  });

  it('holds a project include outside the project for approval, then loads it once approved', async () => {
    const { root, vault, project } = await tree();
    const shared = path.join(root, 'shared', 'style.md');
    await write(shared, 'shared style @./more.md');
    await write(path.join(root, 'shared', 'more.md'), 'more');
    await write(path.join(project, 'CLAUDE.md'), 'project @../../../shared/style.md @./inside.md');
    await write(path.join(project, 'inside.md'), 'inside');
    const first = await loadInstructions({ vaultRoot: vault, projectDir: project });
    expect(names(first.files, root)).toEqual(['work/repo/pkg/CLAUDE.md', 'work/repo/pkg/inside.md']);
    expect(first.pendingApprovals).toEqual([{ path: shared, includedFrom: path.join(project, 'CLAUDE.md') }]);

    const approved = await loadInstructions({ vaultRoot: vault, projectDir: project, approvedExternalIncludes: [shared] });
    // The approved file's own outside include is a new request.
    expect(names(approved.files, root)).toEqual(['work/repo/pkg/CLAUDE.md', 'shared/style.md', 'work/repo/pkg/inside.md']);
    expect(approved.pendingApprovals.map((p) => p.path)).toEqual([path.join(root, 'shared', 'more.md')]);
  });

  it('treats a symlink inside the project that leads outside as an outside include', async () => {
    const { root, vault, project } = await tree();
    await write(path.join(root, 'elsewhere.md'), 'outside');
    await fs.symlink(path.join(root, 'elsewhere.md'), path.join(project, 'link.md'));
    await write(path.join(project, 'CLAUDE.md'), 'see @link.md');
    const { files, pendingApprovals } = await loadInstructions({ vaultRoot: vault, projectDir: project });
    expect(files).toHaveLength(1);
    expect(pendingApprovals.map((p) => p.path)).toEqual([path.join(root, 'elsewhere.md')]);
  });

  it('lets the user file include anything, including ~/ paths, without approval', async () => {
    const { root, vault, project } = await tree();
    const home = path.join(root, 'home');
    await write(path.join(home, 'prefs.md'), 'prefs');
    await write(path.join(vault, 'CLAUDE.md'), 'user @~/prefs.md');
    const { files, pendingApprovals } = await loadInstructions({ vaultRoot: vault, projectDir: project, homeDir: home });
    expect(files.map((f) => [path.relative(root, f.path), f.kind, f.depth])).toEqual([
      ['vault/CLAUDE.md', 'user', 0],
      ['home/prefs.md', 'user', 1],
    ]);
    expect(pendingApprovals).toEqual([]);
  });

  it('loads a file reachable twice only once, at its first place', async () => {
    const { root, vault, project } = await tree();
    await write(path.join(vault, 'CLAUDE.md'), 'user @' + path.join(project, 'CLAUDE.local.md'));
    await write(path.join(project, 'CLAUDE.local.md'), 'local');
    const { files } = await loadInstructions({ vaultRoot: vault, projectDir: project });
    expect(names(files, root)).toEqual(['vault/CLAUDE.md', 'work/repo/pkg/CLAUDE.local.md']);
    expect(files[1]!.kind).toBe('user');
  });
});
