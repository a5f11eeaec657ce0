import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { buildSessionContext } from '../../../../main/core/context/session-context.js';
import { ProjectPaths } from '../../../../main/core/paths/project-paths.js';
import { tempDir } from '../../../support/temp-dir.js';

async function write(file: string, text: string) {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
}

async function project() {
  const root = await tempDir();
  const vault = path.join(root, 'vault');
  const dir = path.join(root, 'proj');
  await fs.mkdir(path.join(dir, '.git'), { recursive: true });
  await write(path.join(vault, 'CLAUDE.md'), 'Answer in English.');
  await write(path.join(dir, 'CLAUDE.md'), 'Run npm test.');
  const paths = await ProjectPaths.resolve(vault, dir);
  return { root, vault, dir, paths };
}

describe('buildSessionContext', () => {
  it('injects CLAUDE.md files, then the auto and team MEMORY.md indexes, then the date', async () => {
    const { paths } = await project();
    await write(path.join(paths.memoryDir, 'MEMORY.md'), '- [Role](role.md) — backend dev\n');
    await write(path.join(paths.teamMemoryDir, 'MEMORY.md'), '- [CI](ci.md) — flaky job\n');
    const ctx = await buildSessionContext({ paths, config: defaultMemoryConfig, today: '2026-12-02' });
    const order = ['Answer in English.', 'Run npm test.', 'backend dev', 'flaky job', "Today's date is 2026-12-02."].map((s) => ctx.reminder.indexOf(s));
    expect(order.every((p) => p >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(ctx.autoIndex).toMatchObject({ truncated: false, path: path.join(paths.memoryDir, 'MEMORY.md') });
  });

  it('cuts an oversized MEMORY.md to its caps with the visible warning', async () => {
    const { paths } = await project();
    const lines = Array.from({ length: 250 }, (_, i) => `- [M${i}](m${i}.md) — hook ${i}`).join('\n');
    await write(path.join(paths.memoryDir, 'MEMORY.md'), lines);
    const ctx = await buildSessionContext({ paths, config: defaultMemoryConfig, today: '2026-12-02' });
    expect(ctx.autoIndex?.truncated).toBe(true);
    expect(ctx.reminder).toContain('hook 199');
    expect(ctx.reminder).not.toContain('hook 249');
    expect(ctx.reminder).toContain('WARNING');
  });

  it('injects MEMORY.md without its frontmatter and comment blocks, and applies the caps after stripping them', async () => {
    const { paths } = await project();
    const comment = Array.from({ length: 60 }, (_, i) => `note ${i}`).join('\n');
    const lines = Array.from({ length: 200 }, (_, i) => `- [M${i}](m${i}.md) — hook ${i}`).join('\n');
    await write(path.join(paths.memoryDir, 'MEMORY.md'), `---\ntitle: index-front\n---\n<!--\n${comment}\n-->\n${lines}\n`);
    const ctx = await buildSessionContext({ paths, config: defaultMemoryConfig, today: '2026-12-02' });
    expect(ctx.reminder).not.toContain('index-front');
    expect(ctx.reminder).not.toContain('note 5');
    expect(ctx.reminder).toContain('hook 199');
    expect(ctx.autoIndex?.truncated).toBe(false);
  });

  it('leaves out memory layers switched off for the project and adds resumed session notes', async () => {
    const { paths } = await project();
    await write(path.join(paths.memoryDir, 'MEMORY.md'), '- [Role](role.md) — backend dev\n');
    const ctx = await buildSessionContext({
      paths,
      config: defaultMemoryConfig,
      today: '2026-12-02',
      autoMemory: false,
      sessionNotes: { path: paths.sessionNotesFile('s1'), content: '# Current State\nHalfway' },
    });
    expect(ctx.autoIndex).toBeNull();
    expect(ctx.reminder).not.toContain('backend dev');
    expect(ctx.reminder).toContain('Halfway');
  });

  it('reports pending approvals of outside includes without injecting them', async () => {
    const { root, dir, paths } = await project();
    await write(path.join(root, 'outside.md'), 'OUTSIDE');
    await write(path.join(dir, 'CLAUDE.md'), 'Run npm test. @../outside.md');
    const ctx = await buildSessionContext({ paths, config: defaultMemoryConfig, today: '2026-12-02' });
    expect(ctx.instructions.pendingApprovals.map((p) => p.path)).toEqual([path.join(root, 'outside.md')]);
    expect(ctx.reminder).not.toContain('OUTSIDE');
    const approved = await buildSessionContext({
      paths,
      config: defaultMemoryConfig,
      today: '2026-12-02',
      approvedExternalIncludes: [path.join(root, 'outside.md')],
    });
    expect(approved.reminder).toContain('OUTSIDE');
  });
});
