import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../main/cli/cli-io.js';
import { runCli } from '../../main/cli/index.js';
import { slug } from '../../common/paths/slug.js';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/anthropic-server/index.js';
import { tempDir } from '../support/temp-dir.js';
import { claudeCode, runClaude, type ClaudeRun } from './claude-code-oracle.js';
import { attachedToResults, mainRequests, oracleResponder, startContext, type Section } from './model-input.js';
import type { WireRequest } from '../fakes/anthropic-server/validate.js';

/**
 * Conformance with the real Claude Code (docs/claude-code-parity.md): the same fixture is given to
 * Claude Code 2.1.88 and to Strata (`strata ask`, the app's own session engine), both talking to one
 * loopback fake, with the vault at Claude Code's config folder; what each sends and writes is compared.
 * Skipped, with the reason, when the npm registry cannot provide the oracle.
 */
const oracle = await claudeCode();
const reason = 'skip' in oracle ? oracle.skip : '';

let fake: FakeAnthropic;
beforeAll(async () => {
  fake = await startFakeAnthropic({ respond: oracleResponder });
});
afterAll(async () => {
  await fake?.close();
});

interface World {
  root: string;
  home: string;
  /** `~/.claude`: Claude Code's config folder and Strata's vault. */
  vault: string;
  project: string;
}

async function write(file: string, text: string) {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
}

async function world(projectName = 'proj'): Promise<World> {
  const root = await tempDir('strata-conformance-');
  const home = path.join(root, 'home');
  const vault = path.join(home, '.claude');
  const project = path.join(home, 'work', projectName);
  await fs.mkdir(vault, { recursive: true });
  await fs.mkdir(project, { recursive: true });
  return { root, home, vault, project: await fs.realpath(project) };
}

/** Requests the fake received while `work` ran. */
async function captured<T>(work: () => Promise<T>): Promise<{ value: T; requests: WireRequest[] }> {
  const from = fake.requests.length;
  const value = await work();
  return { value, requests: mainRequests(fake.requests.slice(from)) };
}

const claude = (w: World, prompt: string, o: { cwd?: string; resume?: string } = {}): Promise<ClaudeRun> => {
  if ('skip' in oracle) throw new Error(oracle.skip);
  return runClaude(oracle, { cwd: o.cwd ?? w.project, home: w.home, configDir: w.vault, apiUrl: fake.url, prompt, resume: o.resume });
};

/** `strata ask` in-process, with HOME at the fixture's home (for `@~/` includes) while it runs. */
async function strata(w: World, prompt: string, o: { cwd?: string; session?: string } = {}): Promise<{ sessionId: string; transcript: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (l) => out.push(l),
    stderr: (l) => err.push(l),
    env: { ANTHROPIC_API_KEY: 'sk-ant-conformance', ANTHROPIC_BASE_URL: fake.url, STRATA_APP_DATA: path.join(w.root, 'app-data') },
    stopped: new Promise(() => undefined),
  };
  const home = process.env.HOME;
  process.env.HOME = w.home;
  try {
    const args = ['ask', '--project', o.cwd ?? w.project, '--vault', w.vault, '--no-memory', '--json', ...(o.session ? ['--session', o.session] : []), prompt];
    const code = await runCli(args, io);
    if (code !== 0) throw new Error(`strata ask exited ${code}: ${err.join('\n')}`);
  } finally {
    process.env.HOME = home;
  }
  return JSON.parse(out.at(-1)!) as { sessionId: string; transcript: string };
}

/** Both programs' start context for one fixture, each run from a fresh session. */
async function bothStartContexts(w: World, prompt = 'Hello'): Promise<{ claude: Section[]; strata: Section[] }> {
  const c = await captured(() => claude(w, prompt));
  const s = await captured(() => strata(w, prompt));
  return { claude: startContext(c.requests[0]!), strata: startContext(s.requests[0]!) };
}

const paths = (list: Section[], root: string) => list.map((s) => path.relative(root, s.path));

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
});

if (reason !== '') {
  describe('Claude Code conformance', () => {
    it.skip(`skipped: ${reason}`, () => undefined);
  });
}
