import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { indexCapNotice } from '../../../../main/core/auto-memory/index-cap-notice.js';
import { tempDir } from '../../../support/temp-dir.js';

const memory = (name: string, description: string, body: string) => `---\nname: ${name}\ndescription: ${description}\ntype: feedback\n---\n${body}\n`;
const lines = (n: number) => Array.from({ length: n }, (_, i) => `- [Memory ${i}](m${i}.md) — hook ${i}`).join('\n');

describe('the MEMORY.md cap notice', () => {
  it('stays quiet while the index has room', async () => {
    const dir = await tempDir();
    await fs.writeFile(path.join(dir, 'MEMORY.md'), lines(100));
    expect(await indexCapNotice(dir, defaultMemoryConfig)).toBeNull();
    expect(await indexCapNotice(path.join(dir, 'missing'), defaultMemoryConfig)).toBeNull();
  });

  it('warns near the cap and names memories that look alike', async () => {
    const dir = await tempDir();
    await fs.writeFile(path.join(dir, 'MEMORY.md'), lines(170));
    const body = 'Run the linter before every commit and fix what it reports, then run the unit tests in watch mode.';
    await fs.writeFile(path.join(dir, 'feedback_lint.md'), memory('Lint first', 'Lint before commits', body));
    await fs.writeFile(path.join(dir, 'feedback_lint_again.md'), memory('Lint', 'Always lint', `${body} Always.`));
    await fs.writeFile(path.join(dir, 'user_role.md'), memory('Role', 'A designer', 'The user designs the product pages.'));
    const notice = await indexCapNotice(dir, defaultMemoryConfig);
    expect(notice).toContain('MEMORY.md is 85% full (170/200 lines');
    expect(notice).toContain('feedback_lint.md + feedback_lint_again.md');
  });

  it('says when lines are already cut and suggests merging the biggest type', async () => {
    const dir = await tempDir();
    await fs.writeFile(path.join(dir, 'MEMORY.md'), lines(230));
    await fs.writeFile(path.join(dir, 'a.md'), memory('A', 'a', 'Use tabs for indentation in every file.'));
    await fs.writeFile(path.join(dir, 'b.md'), memory('B', 'b', 'Deploy on Thursdays after the weekly review.'));
    const notice = await indexCapNotice(dir, defaultMemoryConfig);
    // It names what the agent no longer sees: the cut lines and the first memory among them.
    expect(notice).toContain('is over its limit, so lines 201–230 (from "Memory 200" on) are no longer loaded');
    expect(notice).toContain('merging some of the 2 feedback memories');
  });

  it('names the line where entries too long for 25,000 characters start to be cut', async () => {
    const dir = await tempDir();
    const long = Array.from({ length: 120 }, (_, i) => `- [Long ${i}](l${i}.md) — ${'a detailed hook that belongs in the topic file '.repeat(5)}`).join('\n');
    await fs.writeFile(path.join(dir, 'MEMORY.md'), long);
    const notice = await indexCapNotice(dir, defaultMemoryConfig);
    expect(notice).toMatch(/so lines (\d+)–120 \(from "Long (\d+)" on\) are no longer loaded/);
    const [, from, title] = /lines (\d+)–120 \(from "Long (\d+)"/.exec(notice!)!;
    expect(Number(title)).toBe(Number(from) - 1);
  });
});
