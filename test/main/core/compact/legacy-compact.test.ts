import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { legacyCompact, legacySummaryPrompt, recentlyReadFiles, restoreRecentFiles } from '../../../../main/core/compact/index.js';
import type { SummarizerFork } from '../../../../main/core/session-memory/index.js';
import { TranscriptBuilder } from '../../../fixtures/transcripts/transcript-builder.js';
import { tempDir } from '../../../support/temp-dir.js';

const config = defaultMemoryConfig.compaction;
const usage = { input_tokens: 10, output_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };

describe('the legacy summary prompt', () => {
  it('asks for an analysis then the nine parts, text only, with the user’s instructions', () => {
    const prompt = legacySummaryPrompt('Focus on the database.');
    expect(prompt).toContain('<analysis>');
    expect(prompt).toContain('<summary>');
    for (let i = 1; i <= 9; i++) expect(prompt).toMatch(new RegExp(`^${i}\\. `, 'm'));
    expect(prompt).toContain('Additional instructions:\nFocus on the database.');
    expect(prompt.match(/Do not call any tool/g)).toHaveLength(2);
  });
});

describe('restoreRecentFiles', () => {
  it('re-reads the five most recently read files, each cut at 5,000 tokens, 50,000 in all', async () => {
    const dir = await tempDir();
    const t = new TranscriptBuilder();
    const files: string[] = [];
    for (let i = 0; i < 8; i++) {
      const file = path.join(dir, `f${i}.ts`);
      await fs.writeFile(file, i === 7 ? 'q'.repeat(30_000) : `file ${i}`);
      files.push(file);
      t.toolRound('Read', { file_path: file }, 'x');
    }
    t.toolRound('Read', { file_path: files[6] }, 'again');
    t.toolRound('Read', { file_path: path.join(dir, 'CLAUDE.md') }, 'instructions');
    expect(recentlyReadFiles(t.records).slice(0, 3)).toEqual([path.join(dir, 'CLAUDE.md'), files[6], files[7]]);
    const restored = await restoreRecentFiles(t.records, config);
    expect(restored.map((r) => r.path)).toEqual([files[6], files[7], files[5], files[4], files[3]]);
    expect(restored[1]).toMatchObject({ truncated: true, tokens: 5_000 });
    const tight = await restoreRecentFiles(t.records, { ...config, restoredTotalTokens: 5_001 });
    expect(tight.map((r) => r.path)).toEqual([files[6], files[5], files[4], files[3]]);
  });

  it('skips files that no longer exist', async () => {
    const t = new TranscriptBuilder();
    t.toolRound('Read', { file_path: '/nonexistent/strata/file.ts' }, 'x');
    expect(await restoreRecentFiles(t.records, config)).toEqual([]);
  });
});

describe('legacyCompact', () => {
  it('asks a one-turn fork that may use no tool for the summary, then attaches the restored files', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'main.ts');
    await fs.writeFile(file, 'export const x = 1;');
    const t = new TranscriptBuilder();
    t.user('make x');
    t.toolRound('Read', { file_path: file }, 'export const x = 1;');
    t.assistant('done', { usage: { input_tokens: 150_000 } });
    const seen: { maxTurns: number; denial: unknown }[] = [];
    const summarize: SummarizerFork = async ({ canUseTool, maxTurns }) => {
      seen.push({ maxTurns, denial: await canUseTool('Read', { file_path: file }) });
      return { text: '<analysis>private</analysis>\n<summary>\nThe user wanted x.\n</summary>', usage, cacheHitRatio: 0.95 };
    };
    const result = await legacyCompact({ records: t.records, summarize, trigger: 'auto', config, transcriptPath: '/t.jsonl' });
    expect(seen).toEqual([{ maxTurns: 1, denial: { allow: false, message: expect.stringContaining('No tools') } }]);
    const text = (result.summary.message.content as { text: string }[])[0]!.text;
    expect(text).toContain('Summary:\nThe user wanted x.');
    expect(text).not.toContain('private');
    expect(text).toContain('/t.jsonl');
    expect(text).toContain('without asking the user further questions');
    expect(result.kept).toEqual([]);
    expect(result.attachments).toHaveLength(1);
    expect(result.attachments[0]).toMatchObject({ isMeta: true, parentUuid: result.summary.uuid });
    expect((result.attachments[0]!.message.content as { text: string }[])[0]!.text).toContain('export const x = 1;');
    expect(result.tokensBefore).toBe(150_000);
    expect(result.boundary.compactMetadata).toEqual({ trigger: 'auto', preTokens: 150_000 });
  });

  it('fails when the summarizer returns no text', async () => {
    const t = new TranscriptBuilder();
    t.user('hi');
    const summarize: SummarizerFork = async () => ({ text: '  ', usage, cacheHitRatio: 0 });
    await expect(legacyCompact({ records: t.records, summarize, trigger: 'manual', config })).rejects.toThrow(/no text/);
  });
});
