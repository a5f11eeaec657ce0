import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExtractCommand, extractCommand } from '../../../../main/cli/commands/extract.js';
import type { CliIo } from '../../../../main/cli/cli-io.js';
import { memoryDirFor } from '../../../../main/core/auto-memory/memory-paths.js';
import type { ForkRunner } from '../../../../main/core/auto-memory/memory-extractor.js';
import { tempDir } from '../../../support/temp-dir.js';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIo = { stdout: (l) => out.push(l), stderr: (l) => err.push(l), env: {}, stopped: new Promise(() => {}) };
  return { io: value, out, err };
}

async function transcript(dir: string): Promise<string> {
  const base = { sessionId: 's-cli', timestamp: '2026-12-01T10:00:00.000Z', cwd: dir };
  const lines = [
    { ...base, type: 'user', uuid: 'old', parentUuid: null, message: { role: 'user', content: 'old history' } },
    { ...base, type: 'system', subtype: 'compact_boundary', uuid: 'b', parentUuid: 'old', content: 'compacted', compactMetadata: { trigger: 'auto', preTokens: 1 } },
    // Claude Code's summary record: transcript-only flagged, yet what the model sees in place of the compacted turns.
    { ...base, type: 'user', uuid: 'sum', parentUuid: 'b', isCompactSummary: true, isVisibleInTranscriptOnly: true, message: { role: 'user', content: 'Summary: the user likes tabs.' } },
    { ...base, type: 'user', uuid: 'u1', parentUuid: 'sum', message: { role: 'user', content: 'remember I prefer tabs' } },
    { ...base, type: 'assistant', uuid: 'a1', parentUuid: 'u1', message: { role: 'assistant', content: [{ type: 'text', text: 'noted' }] } },
  ];
  const file = path.join(dir, 's-cli.jsonl');
  await fs.writeFile(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n{"torn`);
  return file;
}

describe('strata extract', () => {
  it('runs one pass over the transcript after its last compaction and reports written, deleted and denied paths', async () => {
    const project = await tempDir('strata-cli-project-');
    const vault = await tempDir('strata-cli-vault-');
    const memoryDir = await memoryDirFor(vault, project);
    await fs.mkdir(memoryDir, { recursive: true });
    await fs.writeFile(path.join(memoryDir, 'stale.md'), 'old');
    let seen: string[] = [];
    const fork: ForkRunner = async (request) => {
      seen = request.contextMessages.map((m) => m.uuid);
      for (const [tool, input] of [
        ['Write', { file_path: path.join(memoryDir, 'feedback_tabs.md'), content: '---\nname: Tabs\ndescription: tabs\ntype: feedback\n---\nTabs.' }],
        ['Delete', { file_path: path.join(memoryDir, 'stale.md') }],
        ['Write', { file_path: path.join(project, 'src.ts'), content: 'x' }],
      ] as const) {
        const decision = await request.canUseTool(tool, { ...input });
        if (decision.behavior === 'deny') continue;
        const target = decision.updatedInput!.file_path as string;
        if (tool === 'Delete') await fs.rm(target);
        else await fs.writeFile(target, String(decision.updatedInput!.content));
      }
      return { usage: null, cacheHitRatio: null };
    };
    const t = io();
    const code = await createExtractCommand(async () => fork).run(['--transcript', await transcript(project), '--project', project, '--vault', vault, '--json'], t.io);
    expect(code).toBe(0);
    expect(seen).toEqual(['sum', 'u1', 'a1']);
    const result = JSON.parse(t.out[0]!);
    expect(result.written).toEqual([path.join(await fs.realpath(memoryDir), 'feedback_tabs.md')]);
    expect(result.deleted).toEqual([path.join(await fs.realpath(memoryDir), 'stale.md')]);
    expect(result.denied).toEqual([{ path: path.join(project, 'src.ts'), reason: expect.stringContaining('outside the memory folder') }]);
    expect(t.err).toEqual([]);
  });

  it("gives the fork a Strata transcript's context reminder at the head, though it is stored as a system record", async () => {
    const project = await tempDir('strata-cli-project-');
    const vault = await tempDir('strata-cli-vault-');
    const base = { sessionId: 's-ctx', timestamp: '2026-12-01T10:00:00.000Z', cwd: project };
    const reminder = "<system-reminder>\nUse the following context when it helps with the user's request.\nAnswer in French.\n</system-reminder>";
    const lines = [
      { ...base, type: 'system', subtype: 'context_reminder', uuid: 'r', parentUuid: null, isMeta: true, content: reminder },
      { ...base, type: 'user', uuid: 'u1', parentUuid: 'r', message: { role: 'user', content: 'remember I prefer tabs' } },
      { ...base, type: 'assistant', uuid: 'a1', parentUuid: 'u1', message: { role: 'assistant', content: [{ type: 'text', text: 'noted' }] } },
    ];
    const file = path.join(project, 's-ctx.jsonl');
    await fs.writeFile(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    let head: unknown = null;
    const fork: ForkRunner = async (request) => {
      head = request.contextMessages[0]?.message.content;
      return { usage: null, cacheHitRatio: null };
    };
    expect(await createExtractCommand(async () => fork).run(['--transcript', file, '--project', project, '--vault', vault, '--json'], io().io)).toBe(0);
    expect(head).toBe(reminder);
  });

  it('treats missing flags and a missing transcript as bad usage', async () => {
    const t = io();
    await expect(extractCommand.run(['--project', '/'], t.io)).rejects.toThrow(/--transcript FILE is required/);
    await expect(extractCommand.run(['--transcript', '/nope.jsonl', '--project', '/'], t.io)).rejects.toThrow(/--transcript: no such file/);
  });
});
