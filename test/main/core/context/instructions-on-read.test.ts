import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { attachedInstructionText, InstructionsOnRead } from '../../../../main/core/context/instructions-on-read.js';
import { tempDir } from '../../../support/temp-dir.js';

async function write(file: string, text: string) {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
}

async function tree() {
  const root = await fs.realpath(await tempDir());
  const vault = path.join(root, 'vault');
  const project = path.join(root, 'repo');
  await write(path.join(project, 'CLAUDE.md'), 'Top rules.');
  await write(path.join(project, 'src', 'CLAUDE.md'), 'Source rules.');
  await write(path.join(project, 'src', 'lib', 'CLAUDE.local.md'), 'My lib notes.');
  await write(path.join(project, 'src', 'lib', 'a.ts'), 'export {}');
  await write(path.join(project, 'src', 'b.md'), 'doc');
  await write(path.join(project, 'docs', 'guide.md'), 'guide');
  await write(path.join(project, '.claude', 'rules', 'ts.md'), '---\npaths: src/**/*.ts\n---\nTypeScript rule.');
  await write(path.join(project, '.claude', 'rules', 'always.md'), 'Always rule.');
  await write(path.join(project, 'src', '.claude', 'rules', 'lib.md'), '---\npaths: lib\n---\nLib rule.');
  await write(path.join(vault, 'rules', 'md.md'), '---\npaths: "*.md"\n---\nUser markdown rule.');
  return { root, vault, project };
}

const rel = (root: string, files: { path: string }[]) => files.map((f) => path.relative(root, f.path));

describe('InstructionsOnRead (Claude Code nested instructions)', () => {
  it('brings each subfolder CLAUDE.md and matching paths: rule once, in Claude Code order, and nothing loaded at the start', async () => {
    const { root, vault, project } = await tree();
    const onRead = new InstructionsOnRead({ vaultRoot: vault, projectDir: project });
    expect(rel(root, await onRead.forFile(path.join(project, 'src', 'lib', 'a.ts')))).toEqual([
      'repo/src/CLAUDE.md',
      'repo/src/.claude/rules/lib.md',
      'repo/src/lib/CLAUDE.local.md',
      'repo/.claude/rules/ts.md',
    ]);
    // Already attached: a second read brings nothing; another file brings only what is new for it.
    expect(await onRead.forFile(path.join(project, 'src', 'lib', 'a.ts'))).toEqual([]);
    expect(rel(root, await onRead.forFile('src/b.md'))).toEqual(['vault/rules/md.md']);
    expect(await onRead.forFile(path.join(project, 'CLAUDE.md'))).toEqual([]);
  });

  it('brings nothing for a file outside the project and renders an attachment as Claude Code words it', async () => {
    const { root, vault, project } = await tree();
    const onRead = new InstructionsOnRead({ vaultRoot: vault, projectDir: path.join(project, 'src') });
    expect(await onRead.forFile(path.join(project, 'docs', 'guide.md'))).toEqual([]);
    const files = await onRead.forFile(path.join(project, 'src', 'lib', 'a.ts'));
    // Folders below the project first, then the rules of the project and the folders above it.
    expect(rel(root, files)).toEqual(['repo/src/lib/CLAUDE.local.md', 'repo/.claude/rules/ts.md', 'repo/src/.claude/rules/lib.md']);
    const file = files[2];
    expect(attachedInstructionText(file!)).toBe(`<system-reminder>\nContents of ${file!.path}:\n\nLib rule.\n</system-reminder>`);
  });

  it('appends to successful Read results only', async () => {
    const { vault, project } = await tree();
    const onRead = new InstructionsOnRead({ vaultRoot: vault, projectDir: project });
    const call = (id: string, name: string, file: string) => ({ type: 'tool_use' as const, id, name, input: { file_path: path.join(project, file) } });
    expect(await onRead.forToolResult(call('1', 'Read', 'src/lib/a.ts'), { type: 'tool_result', tool_use_id: '1', content: 'denied', is_error: true })).toEqual([]);
    expect(await onRead.forToolResult(call('2', 'Grep', 'src/lib/a.ts'), { type: 'tool_result', tool_use_id: '2', content: 'ok' })).toEqual([]);
    const texts = await onRead.forToolResult(call('3', 'Read', 'src/lib/a.ts'), { type: 'tool_result', tool_use_id: '3', content: 'ok' });
    expect(texts.map((t) => /Contents of (.*):/.exec(t)![1]!.slice(project.length + 1))).toEqual([
      'src/CLAUDE.md',
      'src/.claude/rules/lib.md',
      'src/lib/CLAUDE.local.md',
      '.claude/rules/ts.md',
    ]);
  });
});
