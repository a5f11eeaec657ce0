import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { defaultTools, ReadState, realScope, runTool, type PermissionAnswer, type ToolContext } from '../../../../main/core/tools/index.js';
import { tempDir } from '../../../support/temp-dir.js';

const tool = (name: string) => defaultTools().find((t) => t.name === name)!;

async function setup(answer: PermissionAnswer = 'allow_once') {
  const root = await tempDir();
  const project = path.join(root, 'project');
  const memory = path.join(root, 'vault', 'memory');
  const outside = path.join(root, 'outside');
  await Promise.all([project, memory, outside].map((d) => fs.mkdir(d, { recursive: true })));
  const asked: { tool: string; path: string; diff: string }[] = [];
  const memoryWrites: string[] = [];
  const ctx: ToolContext = {
    scope: await realScope({ project, memory: [memory], readOnly: [] }),
    readState: new ReadState(),
    limits: { ...defaultMemoryConfig.agent, readMaxBytes: 64 * 1024 },
    permissionGate: { requestPermission: async (r) => (asked.push(r), answer) },
    beforeMemoryWrite: async (p, c) => (memoryWrites.push(p), c?.includes('SECRET') ? 'Refused: the content looks like a secret.' : null),
  };
  return { project, memory, outside, ctx, asked, memoryWrites };
}

describe('Read', () => {
  it('returns cat -n numbered lines with offset and limit, and cuts long lines', async () => {
    const { project, ctx } = await setup();
    await fs.writeFile(path.join(project, 'a.txt'), ['one', 'two', 'three', 'x'.repeat(2500)].join('\n'));
    const all = await runTool(tool('Read'), { file_path: path.join(project, 'a.txt') }, ctx);
    expect(all.content.split('\n')[0]).toBe('     1\tone');
    expect(all.content).toContain('[line truncated]');
    const part = await runTool(tool('Read'), { file_path: 'a.txt', offset: 2, limit: 1 }, ctx);
    expect(part.content).toBe('     2\ttwo');
  });

  it('refuses a binary file and a file over the size limit with a clear error', async () => {
    const { project, ctx } = await setup();
    await fs.writeFile(path.join(project, 'b.bin'), Buffer.from([1, 2, 0, 3]));
    await fs.writeFile(path.join(project, 'huge.txt'), 'y\n'.repeat(100_000));
    const bin = await runTool(tool('Read'), { file_path: 'b.bin' }, ctx);
    expect(bin).toMatchObject({ isError: true });
    expect(bin.content).toContain('binary');
    const huge = await runTool(tool('Read'), { file_path: 'huge.txt' }, ctx);
    expect(huge.isError).toBe(true);
    expect(huge.content).toContain('exceeds maximum allowed size');
    expect((await runTool(tool('Read'), { file_path: 'huge.txt', offset: 10, limit: 2 }, ctx)).content).toBe('    10\ty\n    11\ty');
  });
});

describe('scoping', () => {
  it('refuses a symlink out of the project and a .. escape, and allows memory folders', async () => {
    const { project, memory, outside, ctx } = await setup();
    await fs.writeFile(path.join(outside, 'secret.txt'), 'no');
    await fs.symlink(outside, path.join(project, 'link'));
    await fs.writeFile(path.join(memory, 'MEMORY.md'), '- note');
    for (const p of [path.join(project, 'link', 'secret.txt'), path.join(project, '..', 'outside', 'secret.txt'), 'link/secret.txt', '/etc/hostname']) {
      const r = await runTool(tool('Read'), { file_path: p }, ctx);
      expect(r.isError, p).toBe(true);
      expect(r.content).toContain('outside the project');
    }
    // `link/..` is the real parent of `outside`, not the project: no lexical folding.
    expect((await runTool(tool('Read'), { file_path: 'link/../project/x' }, ctx)).content).not.toContain('outside the project folder (');
    expect((await runTool(tool('Read'), { file_path: path.join(memory, 'MEMORY.md') }, ctx)).content).toBe('     1\t- note');
    const w = await runTool(tool('Write'), { file_path: path.join(project, 'link', 'new.txt'), content: 'x' }, ctx);
    expect(w.isError).toBe(true);
    await expect(fs.stat(path.join(outside, 'new.txt'))).rejects.toThrow();
  });
});

describe('roots that do not exist yet', () => {
  it('resolves a missing root through its real ancestors, so a file created in it later is inside it (a vault behind a symlink)', async () => {
    const root = await tempDir();
    const real = path.join(root, 'real-vault');
    await fs.mkdir(real);
    await fs.symlink(real, path.join(root, 'vault-link'));
    const project = path.join(root, 'project');
    await fs.mkdir(project);
    // The session's notes folder, named through the link, created only after the scope was resolved.
    const notesDir = path.join(root, 'vault-link', 'projects', 'p', 'session-1');
    const ctx: ToolContext = { scope: await realScope({ project, memory: [notesDir], readOnly: [] }), readState: new ReadState(), limits: defaultMemoryConfig.agent };
    await fs.mkdir(path.join(notesDir, 'session-memory'), { recursive: true });
    const file = path.join(notesDir, 'session-memory', 'summary.md');
    const w = await runTool(tool('Write'), { file_path: file, content: '# Notes\n' }, ctx);
    expect(w.content).not.toContain('outside the project');
    expect(w.isError).toBeFalsy();
    expect(await fs.readFile(path.join(real, 'projects', 'p', 'session-1', 'session-memory', 'summary.md'), 'utf8')).toBe('# Notes\n');
  });
});

describe('Write, Edit, Delete', () => {
  it('asks before a project write with a diff, writes on allow, and reports a denial', async () => {
    const { project, ctx, asked } = await setup();
    const r = await runTool(tool('Write'), { file_path: 'new.md', content: 'hello\n' }, ctx);
    expect(r.isError).toBeFalsy();
    expect(await fs.readFile(path.join(project, 'new.md'), 'utf8')).toBe('hello\n');
    expect(asked[0]).toMatchObject({ tool: 'Write', path: path.join(project, 'new.md') });
    expect(asked[0]!.diff).toContain('+hello');
    const denied = await setup('deny');
    const d = await runTool(tool('Write'), { file_path: 'x.md', content: 'no' }, denied.ctx);
    expect(d.isError).toBe(true);
    expect(d.content).toContain('declined');
  });

  it('writes memory files without asking, through the memory-write hook that may refuse', async () => {
    const { memory, ctx, asked, memoryWrites } = await setup();
    expect((await runTool(tool('Write'), { file_path: path.join(memory, 'a.md'), content: 'fine' }, ctx)).isError).toBeFalsy();
    const refused = await runTool(tool('Write'), { file_path: path.join(memory, 'b.md'), content: 'SECRET' }, ctx);
    expect(refused).toMatchObject({ isError: true, content: 'Refused: the content looks like a secret.' });
    expect(asked).toHaveLength(0);
    expect(memoryWrites).toHaveLength(2);
  });

  it('edits only after a Read of the current content, and only a unique match unless replace_all', async () => {
    const { project, ctx } = await setup();
    const file = path.join(project, 'e.txt');
    await fs.writeFile(file, 'a b a');
    const edit = (input: Record<string, unknown>) => runTool(tool('Edit'), { file_path: file, ...input }, ctx);
    expect((await edit({ old_string: 'b', new_string: 'c' })).content).toContain('has not been read');
    await runTool(tool('Read'), { file_path: file }, ctx);
    expect((await edit({ old_string: 'a', new_string: 'z' })).content).toContain('Found 2 matches');
    expect((await edit({ old_string: 'q', new_string: 'z' })).content).toContain('not found');
    expect((await edit({ old_string: 'b', new_string: 'c' })).isError).toBeFalsy();
    expect((await edit({ old_string: 'a', new_string: 'z', replace_all: true })).isError).toBeFalsy();
    expect(await fs.readFile(file, 'utf8')).toBe('z c z');
    await fs.writeFile(file, 'changed outside');
    await fs.utimes(file, new Date(), new Date(Date.now() + 5_000));
    expect((await edit({ old_string: 'changed', new_string: 'x' })).content).toContain('modified since read');
  });

  it('refuses an Edit after the file changed behind the model even when its mtime did not move', async () => {
    const { project, ctx } = await setup();
    const file = path.join(project, 'same-second.txt');
    await fs.writeFile(file, 'version one\n');
    const stamp = new Date('2026-01-02T03:04:05Z');
    await fs.utimes(file, stamp, stamp);
    await runTool(tool('Read'), { file_path: file }, ctx);
    // Another editor saves within the same timestamp tick (FAT, HFS+ and some mounts keep whole seconds).
    await fs.writeFile(file, 'version two by the user\n');
    await fs.utimes(file, stamp, stamp);
    const edit = await runTool(tool('Edit'), { file_path: file, old_string: 'version', new_string: 'draft' }, ctx);
    expect(edit.isError).toBe(true);
    expect(edit.content).toContain('modified since read');
    const write = await runTool(tool('Write'), { file_path: file, content: 'overwritten' }, ctx);
    expect(write.isError).toBe(true);
    expect(await fs.readFile(file, 'utf8')).toBe('version two by the user\n');
    // A touch that leaves the text as read is still the text the model saw.
    await runTool(tool('Read'), { file_path: file }, ctx);
    await fs.utimes(file, new Date(), new Date(Date.now() + 5_000));
    expect((await runTool(tool('Edit'), { file_path: file, old_string: 'two', new_string: '2' }, ctx)).isError).toBeFalsy();
    expect(await fs.readFile(file, 'utf8')).toBe('version 2 by the user\n');
  });

  it('deletes only inside memory folders', async () => {
    const { project, memory, ctx } = await setup();
    await fs.writeFile(path.join(project, 'p.md'), 'p');
    await fs.writeFile(path.join(memory, 'm.md'), 'm');
    expect((await runTool(tool('Delete'), { file_path: 'p.md' }, ctx)).isError).toBe(true);
    expect((await runTool(tool('Delete'), { file_path: path.join(memory, 'm.md') }, ctx)).isError).toBeFalsy();
    await expect(fs.stat(path.join(memory, 'm.md'))).rejects.toThrow();
  });
});

describe('Glob and Grep', () => {
  it('finds files by pattern and content, skipping node_modules, .git and binaries', async () => {
    const { project, ctx } = await setup();
    await fs.mkdir(path.join(project, 'src'), { recursive: true });
    await fs.mkdir(path.join(project, 'node_modules', 'm'), { recursive: true });
    await fs.mkdir(path.join(project, '.git'), { recursive: true });
    await fs.writeFile(path.join(project, 'src', 'a.ts'), 'const Needle = 1;\nneedle again\n');
    await fs.writeFile(path.join(project, 'src', 'b.md'), 'no match\n');
    await fs.writeFile(path.join(project, 'node_modules', 'm', 'c.ts'), 'Needle');
    await fs.writeFile(path.join(project, '.git', 'd.ts'), 'Needle');
    await fs.writeFile(path.join(project, 'e.bin'), Buffer.from('Needle\0'));
    expect((await runTool(tool('Glob'), { pattern: '**/*.ts' }, ctx)).content).toBe(path.join(project, 'src', 'a.ts'));
    const files = await runTool(tool('Grep'), { pattern: 'needle', '-i': true }, ctx);
    expect(files.content).toBe(`Found 1 file\n${path.join(project, 'src', 'a.ts')}`);
    const content = await runTool(tool('Grep'), { pattern: 'Needle', output_mode: 'content', glob: '*.ts' }, ctx);
    expect(content.content).toBe(`${path.join(project, 'src', 'a.ts')}:1:const Needle = 1;`);
    const count = await runTool(tool('Grep'), { pattern: 'needle', '-i': true, output_mode: 'count' }, ctx);
    expect(count.content).toBe(`${path.join(project, 'src', 'a.ts')}:2`);
    expect((await runTool(tool('Grep'), { pattern: '(' }, ctx)).isError).toBe(true);
  });
});
