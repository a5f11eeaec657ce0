import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { slug } from '../../common/paths/slug.js';
import { importClaudeCode } from '../../main/core/transcripts/claude-code-import.js';
import { claudeCode } from './claude-code-oracle.js';
import { conformanceRig, world, write, type World } from './fixture-world.js';
import { attachedToResults, blocksOf, startContext, type Section } from './model-input.js';
import type { WireRequest } from '../fakes/anthropic-server/validate.js';

/**
 * Conformance with the real Claude Code (docs/claude-code-parity.md): the same fixture is given to
 * Claude Code 2.1.88 and to Strata (`strata ask`, the app's own session engine), both talking to one
 * loopback fake, with the vault at Claude Code's config folder; what each sends and writes is compared.
 * Skipped, with the reason, when the npm registry cannot provide the oracle. STRATA_CONFORMANCE_VERSION
 * runs the same cases against another version (docs/claude-code-parity.md#claude-code-21332).
 */
const oracle = await claudeCode(process.env.STRATA_CONFORMANCE_VERSION);
const reason = 'skip' in oracle ? oracle.skip : '';

const { claude, strata, captured } = conformanceRig(oracle);

/** Both programs' start context for one fixture, each run from a fresh session. */
async function bothStartContexts(w: World, prompt = 'Hello'): Promise<{ claude: Section[]; strata: Section[] }> {
  const c = await captured(() => claude(w, prompt));
  const s = await captured(() => strata(w, prompt));
  return { claude: startContext(c.requests[0]!), strata: startContext(s.requests[0]!) };
}

const paths = (list: Section[], root: string) => list.map((s) => path.relative(root, s.path));

/** The project folder under `<vault>/projects` holding `file`. */
async function folderHolding(vault: string, file: string): Promise<string> {
  for (const dir of await fs.readdir(path.join(vault, 'projects'))) {
    if (await fs.stat(path.join(vault, 'projects', dir, file)).then(() => true, () => false)) return dir;
  }
  throw new Error(`no project folder holds ${file}`);
}

/** The conversation as the model sees it, without either program's own reminders: role and texts per message. */
function conversation(request: WireRequest): [string, ...string[]][] {
  return (request.messages ?? []).map((m) => [
    m.role,
    ...blocksOf(m).flatMap((b) => {
      if (b.type === 'text') return String(b.text).trimStart().startsWith('<system-reminder>') ? [] : [String(b.text).trim()];
      return [b.type];
    }),
  ]);
}

describe.skipIf(reason !== '')(`Strata and Claude Code ${'skip' in oracle ? '' : oracle.version} on the same fixtures`, () => {
  it('load the same instruction files in the same order with the same text', { timeout: 120_000 }, async () => {
    const w = await world();
    const p = w.project;
    await write(path.join(w.vault, 'CLAUDE.md'), 'User file.\n@~/notes/user-include.md\n');
    await write(path.join(w.home, 'notes', 'user-include.md'), 'Included from home.');
    await write(path.join(w.vault, 'rules', 'b-user.md'), 'User rule b.');
    await write(path.join(w.vault, 'rules', 'a', 'nested.md'), 'User rule in a subfolder.');
    await write(path.join(w.home, 'work', 'CLAUDE.md'), 'Parent folder file.');
    await write(path.join(p, 'CLAUDE.md'), [
      '---', 'owner: team', '---', 'Project file.',
      '<!-- a block comment -->',
      'Inline <!-- kept inline --> comment and `<!-- in a code span -->`.',
      '<!-- residue --> Text after a comment.',
      '@./inc/d1.md @./cycle-a.md @./shot.png @./paper.pdf @./odd. @./plain.txt',
    ].join('\n'));
    for (let d = 1; d <= 6; d++) await write(path.join(p, 'inc', `d${d}.md`), `Depth ${d}.${d < 6 ? ` @./d${d + 1}.md` : ''}`);
    await write(path.join(p, 'cycle-a.md'), 'Cycle A. @./cycle-b.md');
    await write(path.join(p, 'cycle-b.md'), 'Cycle B. @./cycle-a.md');
    for (const name of ['shot.png', 'paper.pdf', 'odd.', 'plain.txt']) await write(path.join(p, name), `Text inside ${name}.`);
    await write(path.join(p, '.claude', 'CLAUDE.md'), 'Dot-claude file.');
    await write(path.join(p, '.claude', 'rules', 'z.md'), 'Project rule z.');
    await write(path.join(p, '.claude', 'rules', 'sub', 'x.md'), 'Project rule in a subfolder.');
    await write(path.join(p, '.claude', 'rules', 'ts-only.md'), '---\npaths: src/**/*.ts\n---\nOnly for TypeScript.');
    await write(path.join(p, 'CLAUDE.local.md'), 'Local file.');

    const got = await bothStartContexts(w);
    expect(paths(got.strata, w.root)).toEqual(paths(got.claude, w.root));
    expect(got.strata).toEqual(got.claude);
    // What the fixture is about, said outright so a change in both at once still shows.
    const claudeText = JSON.stringify(got.claude);
    expect(claudeText).toContain('Inline <!-- kept inline --> comment');
    expect(claudeText).not.toContain('Only for TypeScript.');
    expect(claudeText).not.toContain('Text inside shot.png');
    expect(claudeText).toContain('Text inside plain.txt');
    expect(claudeText).toContain('User rule in a subfolder.');
  });

  it('inject MEMORY.md the same way: frontmatter and comment blocks stripped, cut at 200 lines', { timeout: 120_000 }, async () => {
    const w = await world();
    const memory = path.join(w.vault, 'projects', slug(w.project), 'memory');
    const lines = Array.from({ length: 230 }, (_, i) => `- [Memory ${i}](m${i}.md) — hook ${i}`).join('\n');
    await write(path.join(memory, 'MEMORY.md'), `---\ntitle: index\n---\n<!-- maintained by hand -->\n${lines}\n`);
    const got = await bothStartContexts(w);
    const index = (list: Section[]) => list.find((s) => s.path.endsWith('MEMORY.md'));
    const before = (s: Section | undefined) => s?.content.split('\n\n> WARNING')[0];
    expect(index(got.claude)?.label).toBe(index(got.strata)?.label);
    expect(before(index(got.strata))).toBe(before(index(got.claude)));
    expect(before(index(got.claude))).toContain('hook 199');
    expect(before(index(got.claude))).not.toContain('hook 200');
    expect(before(index(got.claude))).not.toContain('title: index');
  });

  it('cut MEMORY.md at 25,000 characters at the same line', { timeout: 120_000 }, async () => {
    const w = await world();
    const memory = path.join(w.vault, 'projects', slug(w.project), 'memory');
    const lines = Array.from({ length: 150 }, (_, i) => `- [Memory ${i}](m${i}.md) — ${'long hook '.repeat(20)}${i}`).join('\n');
    await write(path.join(memory, 'MEMORY.md'), `${lines}\n`);
    const got = await bothStartContexts(w);
    const before = (list: Section[]) => list.find((s) => s.path.endsWith('MEMORY.md'))?.content.split('\n\n> WARNING')[0];
    expect(before(got.strata)).toBe(before(got.claude));
    expect(before(got.claude)!.length).toBeLessThanOrEqual(25_000);
  });

  it('attach a subfolder CLAUDE.md and matching paths: rules after a Read, the same files in the same order', { timeout: 120_000 }, async () => {
    const w = await world();
    const p = w.project;
    await write(path.join(p, 'CLAUDE.md'), 'Top.');
    await write(path.join(p, 'src', 'CLAUDE.md'), 'Source folder.');
    await write(path.join(p, 'src', 'lib', 'CLAUDE.local.md'), 'Lib local.');
    await write(path.join(p, 'src', 'lib', 'app.ts'), 'export const app = 1;\n');
    await write(path.join(p, '.claude', 'rules', 'ts.md'), '---\npaths: src/**/*.ts\n---\nTypeScript rule.');
    await write(path.join(p, '.claude', 'rules', 'md.md'), '---\npaths: "*.md"\n---\nMarkdown rule.');
    await write(path.join(w.vault, 'rules', 'user-ts.md'), '---\npaths:\n  - "**/*.ts"\n---\nUser TypeScript rule.');
    const prompt = `[[read ${path.join(p, 'src', 'lib', 'app.ts')}]]`;
    const c = await captured(() => claude(w, prompt));
    const s = await captured(() => strata(w, prompt));
    const claudeAttached = attachedToResults(c.requests.at(-1)!);
    expect(paths(claudeAttached, w.root).length).toBeGreaterThan(0);
    expect(attachedToResults(s.requests.at(-1)!)).toEqual(claudeAttached);
    expect(JSON.stringify(claudeAttached)).not.toContain('Markdown rule.');
  });

  it('write each project to the same folder: spaces, dots, emoji, CJK, over 200 characters, a symlink', { timeout: 180_000 }, async () => {
    const w = await world();
    const names = ['My Proj.v2 😀 日本語', `caf\u00e9-${'x'.repeat(220)}`];
    const folders = names.map((n) => path.join(w.home, 'work', n));
    const real = path.join(w.home, 'work', 'real-target');
    const link = path.join(w.home, 'work', 'the-link');
    await fs.mkdir(real);
    await fs.symlink(real, link);
    for (const f of folders) await fs.mkdir(f);
    for (const cwd of [...folders, link]) {
      const c = await claude(w, 'Hello', { cwd });
      const claudeDir = await folderHolding(w.vault, `${c.result.session_id}.jsonl`);
      const s = await strata(w, 'Hello', { cwd });
      expect(path.basename(path.dirname(s.transcript)), cwd).toBe(claudeDir);
      expect(claudeDir, cwd).toBe(slug(await fs.realpath(cwd)));
    }
  });

  it('name a folder spelled in NFD after its NFC form, as Claude Code does (which cannot start in one on Linux)', { timeout: 120_000 }, async () => {
    const w = await world();
    const nfc = path.join(w.home, 'work', `caf\u00e9-${'y'.repeat(210)}`);
    const nfd = path.join(w.home, 'work', `cafe\u0301-${'y'.repeat(210)}`);
    await fs.mkdir(nfd);
    // Claude Code 2.1.88 takes realpath(cwd) in NFC as its working folder; on Linux that path does not
    // exist for an NFD folder and it ends without a result.
    await expect(claude(w, 'Hello', { cwd: nfd })).rejects.toThrow(/without a JSON result/);
    await fs.mkdir(nfc);
    const c = await claude(w, 'Hello', { cwd: nfc });
    const claudeDir = await folderHolding(w.vault, `${c.result.session_id}.jsonl`);
    const s = await strata(w, 'Hello', { cwd: nfd });
    expect(path.basename(path.dirname(s.transcript))).toBe(claudeDir);
  });

  it("share one memory folder across git worktrees, the main repository's", { timeout: 120_000 }, async () => {
    const w = await world('repo');
    const git = (...args: string[]) => execFileSync('git', args, { cwd: w.project, stdio: 'ignore', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
    git('init', '-q');
    git('commit', '-q', '--allow-empty', '-m', 'init');
    const tree = path.join(w.home, 'work', 'repo-wt');
    git('worktree', 'add', '-q', tree);
    const memory = path.join(w.vault, 'projects', slug(w.project), 'memory');
    await write(path.join(memory, 'MEMORY.md'), '- [Shared](shared.md) — one index for every worktree\n');
    const got = await (async () => {
      const c = await captured(() => claude(w, 'Hello', { cwd: tree }));
      const s = await captured(() => strata(w, 'Hello', { cwd: tree }));
      return { claude: startContext(c.requests[0]!), strata: startContext(s.requests[0]!), session: c.value.result.session_id, transcript: s.value.transcript };
    })();
    const index = (list: Section[]) => list.find((x) => x.path.endsWith('MEMORY.md'));
    expect(index(got.claude)?.path).toBe(path.join(memory, 'MEMORY.md'));
    expect(index(got.strata)).toEqual(index(got.claude));
    // Transcripts stay per folder: the worktree's own.
    expect(await folderHolding(w.vault, `${got.session}.jsonl`)).toBe(slug(await fs.realpath(tree)));
    expect(path.basename(path.dirname(got.transcript))).toBe(slug(await fs.realpath(tree)));
  });

  it('resume a session Claude Code compacted with its summary, and what follows it, in the same order', { timeout: 120_000 }, async () => {
    const w = await world();
    const sessionId = '5f0c8a52-8d0e-4d8e-9a55-0d7f4a1f2b10';
    const base = { sessionId, cwd: w.project, version: '2.1.88', userType: 'external', isSidechain: false };
    const records = [
      { ...base, type: 'user', uuid: 'a0000000-0000-4000-8000-000000000001', parentUuid: null, message: { role: 'user', content: 'Old question before the compaction.' } },
      { ...base, type: 'assistant', uuid: 'a0000000-0000-4000-8000-000000000002', parentUuid: 'a0000000-0000-4000-8000-000000000001', message: { id: 'msg_old', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [{ type: 'text', text: 'Old answer.' }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 3 } } },
      { ...base, type: 'system', subtype: 'compact_boundary', uuid: 'a0000000-0000-4000-8000-000000000003', parentUuid: null, logicalParentUuid: 'a0000000-0000-4000-8000-000000000002', content: 'Conversation compacted', level: 'info', isMeta: false, compactMetadata: { trigger: 'manual', preTokens: 1234 } },
      { ...base, type: 'user', uuid: 'a0000000-0000-4000-8000-000000000004', parentUuid: 'a0000000-0000-4000-8000-000000000003', isCompactSummary: true, isVisibleInTranscriptOnly: true, message: { role: 'user', content: 'This session is being continued from a previous conversation. Summary: the launch is on Friday.' } },
      { ...base, type: 'user', uuid: 'a0000000-0000-4000-8000-000000000005', parentUuid: 'a0000000-0000-4000-8000-000000000004', message: { role: 'user', content: 'Question after the compaction.' } },
      { ...base, type: 'assistant', uuid: 'a0000000-0000-4000-8000-000000000006', parentUuid: 'a0000000-0000-4000-8000-000000000005', message: { id: 'msg_new', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [{ type: 'text', text: 'Answer after the compaction.' }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 3 } } },
    ];
    const timed = records.map((r, i) => ({ ...r, timestamp: `2026-12-01T10:00:0${i}.000Z` }));
    const file = path.join(w.vault, 'projects', slug(w.project), `${sessionId}.jsonl`);
    const fixture = `${timed.map((r) => JSON.stringify(r)).join('\n')}\n`;
    await write(file, fixture);
    const c = await captured(() => claude(w, 'Next question.', { resume: sessionId }));
    // Claude Code appended its turn: each program resumes the same fixture.
    await write(file, fixture);
    const s = await captured(() => strata(w, 'Next question.', { session: sessionId }));
    const claudeTurns = conversation(c.requests[0]!);
    expect(claudeTurns.flat().join(' ')).toContain('Summary: the launch is on Friday.');
    expect(claudeTurns.flat().join(' ')).not.toContain('Old question');
    expect(conversation(s.requests[0]!)).toEqual(claudeTurns);
  });

  it("resume each other's sessions with the context once, rebuilt from the files as they are now", { timeout: 180_000 }, async () => {
    const w = await world();
    const rule = path.join(w.project, 'CLAUDE.md');
    // A Strata session resumed by Claude Code: Strata's stored context is not sent again.
    await write(rule, 'Rule version one.');
    const first = await strata(w, 'First question from Strata.');
    const c1 = await captured(() => claude(w, 'Second question in Claude Code.', { resume: first.sessionId }));
    const sent1 = JSON.stringify(c1.requests[0]!.messages);
    expect(sent1.split('Rule version one.').length - 1).toBe(1);
    expect(sent1).toContain('First question from Strata.');

    // A Claude Code session resumed by Strata after CLAUDE.md changed: both send only the new text, at the head.
    const c2 = await claude(w, 'First question from Claude Code.');
    await write(rule, 'Rule version two.');
    const resumedByClaude = await captured(() => claude(w, 'Again in Claude Code.', { resume: c2.result.session_id }));
    const resumedByStrata = await captured(() => strata(w, 'Again in Strata.', { session: c2.result.session_id }));
    for (const request of [resumedByClaude.requests[0]!, resumedByStrata.requests[0]!]) {
      const all = JSON.stringify(request.messages);
      expect(all).not.toContain('Rule version one.');
      expect(all.split('Rule version two.').length - 1).toBe(1);
      expect(startContext(request).map((x) => x.content)).toContain('Rule version two.');
    }
  });

  it('remember the same way: the memory file lands in the one memory folder, and the next session sees the index', { timeout: 120_000 }, async () => {
    const w = await world();
    const memory = path.join(w.vault, 'projects', slug(w.project), 'memory');
    const memo = (who: string) => `---\nname: Launch day (${who})\ndescription: when the launch is\ntype: project\n---\nThe launch is on Friday.\n`;
    const ask = (who: string) => `Remember the launch day. [[write ${path.join(memory, `project_launch_${who}.md`)}]]${memo(who)}[[end]]`;
    await claude(w, ask('claude'));
    await strata(w, ask('strata'));
    expect(await fs.readFile(path.join(memory, 'project_launch_claude.md'), 'utf8')).toBe(memo('claude'));
    // Strata also records the conversation that wrote it, as the newest Claude Code does (docs/claude-code-parity.md).
    const written = await fs.readFile(path.join(memory, 'project_launch_strata.md'), 'utf8');
    expect(written).toMatch(/^originSessionId: [0-9a-f-]{36}$/m);
    expect(written.replace(/^originSessionId: .*\n/m, '')).toBe(memo('strata'));
    // An index written by either is what the other injects at its next start.
    await write(path.join(memory, 'MEMORY.md'), '- [Launch day](project_launch_strata.md) — the launch is on Friday\n');
    const got = await bothStartContexts(w);
    const index = (list: Section[]) => list.find((x) => x.path === path.join(memory, 'MEMORY.md'));
    expect(index(got.claude)?.content).toContain('the launch is on Friday');
    expect(index(got.strata)).toEqual(index(got.claude));
  });

  it('import a Claude Code folder into another vault and resume its session with the same messages', { timeout: 120_000 }, async () => {
    const w = await world();
    await write(path.join(w.project, 'CLAUDE.md'), 'Imported project rule.');
    const first = await claude(w, 'Question asked in Claude Code.');
    const vault = path.join(w.root, 'strata-vault');
    await importClaudeCode({ from: w.vault, vaultRoot: vault });
    const c = await captured(() => claude(w, 'Follow-up.', { resume: first.result.session_id }));
    const s = await captured(() => strata({ ...w, vault }, 'Follow-up.', { session: first.result.session_id }));
    expect(conversation(s.requests[0]!)).toEqual(conversation(c.requests[0]!));
    for (const request of [c.requests[0]!, s.requests[0]!]) {
      expect(JSON.stringify(request.messages).split('Imported project rule.').length - 1).toBe(1);
      expect(startContext(request).map((x) => x.content)).toContain('Imported project rule.');
    }
  });

  it("import the sidechain transcript of a subagent Claude Code ran, next to its session", { timeout: 120_000 }, async () => {
    const w = await world();
    const run = await claude(w, 'Ask a helper. [[agent]]');
    const sessionDir = path.join(w.vault, 'projects', slug(w.project), run.result.session_id, 'subagents');
    const sidechains = (await fs.readdir(sessionDir, { recursive: true })).filter((f) => /agent-[^/]*\.jsonl$/.test(String(f))).map(String);
    expect(sidechains.length).toBeGreaterThan(0);
    const vault = path.join(w.root, 'strata-vault');
    await importClaudeCode({ from: w.vault, vaultRoot: vault });
    for (const rel of sidechains) {
      const copied = path.join(vault, 'projects', slug(w.project), run.result.session_id, 'subagents', rel);
      expect(await fs.readFile(copied, 'utf8')).toBe(await fs.readFile(path.join(sessionDir, rel), 'utf8'));
      expect(await fs.readFile(copied, 'utf8')).toContain('"isSidechain":true');
    }
  });
});

if (reason !== '') {
  describe('Claude Code conformance', () => {
    it.skip(`skipped: ${reason}`, () => undefined);
  });
}
