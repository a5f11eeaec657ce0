import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { runForkedAgent } from '../../../../main/core/agent/index.js';
import { createExtractorCanUseTool, toLoopCanUseTool } from '../../../../main/core/auto-memory/extractor-permissions.js';
import { memoryWriteGuard, type MemoryWriteGuard } from '../../../../main/core/auto-memory/write-guard.js';
import { agentTools } from '../../../../main/core/chat/agent-setup.js';
import { createLlmClient } from '../../../../main/core/llm/index.js';
import { scanText } from '../../../../main/core/secrets/index.js';
import { defaultTools, ReadState, realScope, runTool, type ToolContext } from '../../../../main/core/tools/index.js';
import { startFakeAnthropic, text, toolCalls, type FakeAnthropic, type WireRequest } from '../../../fakes/anthropic-server/index.js';
import { tempDir } from '../../../support/temp-dir.js';

/**
 * docs/memory.md#auto-memory "Tests and checks", sandbox: hostile Write/Edit/Delete tool inputs on a real temp filesystem
 * with real symlinks, through the extractor's real forked agent (fake Messages API) and through the main
 * agent's tools — each denied, nothing created or changed anywhere; legitimate writes succeed.
 *
 * Layout: <root>/vault/projects/café/memory (the memory folder, its slug with a non-ASCII letter),
 * <root>/vault/projects/café/outside, <root>/project (the opened folder), <root>/secret.txt.
 */
async function tree() {
  const root = await tempDir('strata-sandbox-tools-');
  const slugDir = path.join(root, 'vault', 'projects', 'caf\u00E9');
  const memory = path.join(slugDir, 'memory');
  const outside = path.join(slugDir, 'outside');
  const project = path.join(root, 'project');
  for (const d of [path.join(memory, 'sub'), outside, project]) await fs.mkdir(d, { recursive: true });
  await fs.writeFile(path.join(root, 'secret.txt'), 'original');
  await fs.writeFile(path.join(outside, 'notes.md'), 'original');
  await fs.writeFile(path.join(project, 'app.ts'), 'original');
  await fs.writeFile(path.join(memory, 'existing.md'), '---\nname: e\ndescription: d\ntype: user\n---\noriginal\n');
  return { root, slugDir, memory, outside, project };
}
type Tree = Awaited<ReturnType<typeof tree>>;

/** Every entry under root with its kind and content (links by target), to prove nothing changed. */
async function snapshot(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    for (const e of await fs.readdir(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isSymbolicLink()) out.push(`${p} -> ${await fs.readlink(p)}`);
      else if (e.isDirectory()) {
        out.push(`${p}/`);
        await walk(p);
      } else out.push(`${p}: ${await fs.readFile(p, 'utf8')}`);
    }
  };
  await walk(root);
  return out.sort();
}

const hostile: { name: string; prepare?: (t: Tree) => Promise<unknown>; path: (t: Tree) => string }[] = [
  { name: 'a `..` segment climbing out', path: (t) => `${t.memory}/../outside/notes.md` },
  { name: 'a `..` segment that comes back in', path: (t) => `${t.memory}/sub/../existing.md` },
  { name: 'an absolute path elsewhere', path: (t) => path.join(t.root, 'secret.txt') },
  { name: 'an absolute path in the project', path: (t) => path.join(t.project, 'app.ts') },
  { name: 'a sibling folder with the memory folder as a prefix', prepare: (t) => fs.mkdir(`${t.memory}-evil`), path: (t) => `${t.memory}-evil/x.md` },
  { name: 'a NUL byte', path: (t) => `${t.memory}/x.md\0.txt` },
  { name: 'fullwidth dots disguising `..`', path: (t) => `${t.memory}/\uFF0E\uFF0E/outside/notes.md` },
  { name: 'a backslash path', path: (t) => `${t.memory}\\..\\outside\\notes.md` },
  { name: 'an existing sibling that differs only by case', prepare: (t) => fs.mkdir(path.join(t.slugDir, 'Memory')), path: (t) => path.join(t.slugDir, 'Memory', 'x.md') },
  { name: 'a missing sibling that differs only by case', path: (t) => path.join(t.slugDir, 'MEMORY', 'x.md') },
  {
    name: 'a sibling that differs only by compatibility normalization (fullwidth m)',
    prepare: (t) => fs.mkdir(path.join(t.slugDir, '\uFF4Demory')),
    path: (t) => path.join(t.slugDir, '\uFF4Demory', 'x.md'),
  },
  {
    name: 'a project folder that differs only by NFC/NFD',
    prepare: (t) => fs.mkdir(path.join(t.root, 'vault', 'projects', 'cafe\u0301', 'memory'), { recursive: true }),
    path: (t) => path.join(t.root, 'vault', 'projects', 'cafe\u0301', 'memory', 'x.md'),
  },
  { name: 'a symlinked file pointing outside', prepare: (t) => fs.symlink(path.join(t.root, 'secret.txt'), path.join(t.memory, 'link.md')), path: (t) => path.join(t.memory, 'link.md') },
  { name: 'a dangling symlink pointing outside', prepare: (t) => fs.symlink(path.join(t.outside, 'new.md'), path.join(t.memory, 'dangling.md')), path: (t) => path.join(t.memory, 'dangling.md') },
  { name: 'a dangling relative symlink climbing out', prepare: (t) => fs.symlink('../outside/new.md', path.join(t.memory, 'rel.md')), path: (t) => path.join(t.memory, 'rel.md') },
  { name: 'a symlinked folder pointing outside', prepare: (t) => fs.symlink(t.outside, path.join(t.memory, 'dir-link')), path: (t) => path.join(t.memory, 'dir-link', 'notes.md') },
  { name: 'a symlinked folder pointing into the project', prepare: (t) => fs.symlink(t.project, path.join(t.memory, 'proj-link')), path: (t) => path.join(t.memory, 'proj-link', 'app.ts') },
  {
    name: 'a chain of symlinks ending outside',
    prepare: async (t) => {
      await fs.symlink(path.join(t.root, 'secret.txt'), path.join(t.memory, 'sub', 'hop2'));
      await fs.symlink('sub/hop2', path.join(t.memory, 'hop1.md'));
    },
    path: (t) => path.join(t.memory, 'hop1.md'),
  },
  {
    name: 'a symlink loop',
    prepare: async (t) => {
      await fs.symlink('loop-b', path.join(t.memory, 'loop-a'));
      await fs.symlink('loop-a', path.join(t.memory, 'loop-b'));
    },
    path: (t) => path.join(t.memory, 'loop-a', 'x.md'),
  },
  { name: 'a hard link to a file outside', prepare: (t) => fs.link(path.join(t.root, 'secret.txt'), path.join(t.memory, 'hard.md')), path: (t) => path.join(t.memory, 'hard.md') },
];

/** One Write, Edit and Delete of `file`, as a model would send them. */
const attack = (file: string) => [
  { name: 'Write', input: { file_path: file, content: 'pwned' } },
  { name: 'Edit', input: { file_path: file, old_string: 'original', new_string: 'pwned' } },
  { name: 'Delete', input: { file_path: file } },
];

const guardHook = (guard: MemoryWriteGuard): ToolContext['beforeMemoryWrite'] => async (file, content) => {
  const check = await guard.check({ path: file, ...(content === null ? {} : { content }) });
  return check.ok ? null : `Refused: ${check.reason}.`;
};

let fake: FakeAnthropic | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

/** The extractor's fork on the real loop: the fake issues `calls` once, then ends; returns the tool results. */
async function extractorFork(t: Tree, calls: ReturnType<typeof attack>) {
  fake = await startFakeAnthropic({
    strict: true,
    respond: (body: WireRequest) => ((body.messages ?? []).some((m) => m.role === 'assistant') ? text('Done.') : toolCalls(calls)),
  });
  const guard = memoryWriteGuard({ memoryDirs: [t.memory], scan: scanText });
  const result = await runForkedAgent({
    llm: createLlmClient({ getApiKey: async () => 'sk-ant-test', baseURL: fake.url, model: 'claude-test' }),
    system: [{ type: 'text', text: 'You are Strata.' }],
    tools: defaultTools(),
    messages: [],
    promptMessages: [{ role: 'user', content: 'You are the memory extractor.' }],
    toolContext: {
      scope: await realScope({ project: t.project, memory: [t.memory], readOnly: [] }),
      readState: new ReadState(),
      limits: defaultMemoryConfig.agent,
      beforeMemoryWrite: guardHook(guard),
    },
    canUseTool: toLoopCanUseTool(createExtractorCanUseTool({ projectDir: t.project, guard })),
    maxTurns: 5,
    session: { sessionId: 's1', cwd: t.project },
  });
  expect(result.status).toBe('completed');
  expect(fake.requests.map((r) => r.rejected)).toEqual(fake.requests.map(() => null));
  const results = result.records.flatMap((r) => (typeof r.message.content === 'string' ? [] : r.message.content)).filter((b) => b.type === 'tool_result');
  return results as { is_error?: boolean; content: unknown }[];
}

/**
 * The main agent's tools and context as the chat builds them. A write outside the memory folders asks
 * the user, who says yes: whatever is not refused before the prompt lands.
 */
async function mainAgent(t: Tree) {
  const asked: string[] = [];
  const ctx: ToolContext = {
    scope: await realScope({ project: t.project, memory: [t.memory], readOnly: [] }),
    readState: new ReadState(),
    limits: defaultMemoryConfig.agent,
    beforeMemoryWrite: guardHook(memoryWriteGuard({ memoryDirs: [t.memory], scan: scanText })),
    permissionGate: {
      requestPermission: async (request) => {
        asked.push(request.path);
        return 'allow_once';
      },
    },
  };
  const tools = new Map(agentTools([t.memory]).map((tool) => [tool.name, tool]));
  const run = async (calls: ReturnType<typeof attack>) => {
    const out = [];
    for (const c of calls) {
      // The agent reads before it edits; the read goes through the same scope.
      await runTool(tools.get('Read')!, { file_path: c.input.file_path }, ctx);
      out.push(await runTool(tools.get(c.name)!, c.input, ctx));
    }
    return out;
  };
  return { run, asked };
}

describe('the memory write sandbox on hostile tool inputs', () => {
  it.each(hostile)('the extractor’s fork is denied Write, Edit and Delete through $name, and nothing changes', async (c) => {
    const t = await tree();
    await c.prepare?.(t);
    const before = await snapshot(t.root);
    const results = await extractorFork(t, attack(c.path(t)));
    expect(results).toHaveLength(3);
    for (const r of results) expect(r.is_error, JSON.stringify(r.content)).toBe(true);
    expect(await snapshot(t.root)).toEqual(before);
  });

  // A `..` that comes back into the folder reaches the main agent's memory-write hook already resolved
  // (main/core/tools hands it the real path), so only the extractor's check sees and refuses the segment.
  // A project file named as such is the user's call: the prompt below allows it (the next test).
  const mainAgentCases = hostile.filter((c) => c.name !== 'a `..` segment that comes back in' && c.name !== 'an absolute path in the project');

  it.each(mainAgentCases)('the main agent never writes outside the memory folder through $name, even when the user would allow it', async (c) => {
    const t = await tree();
    await c.prepare?.(t);
    const before = await snapshot(t.root);
    const agent = await mainAgent(t);
    const results = await agent.run(attack(c.path(t)));
    for (const r of results) expect(r.isError, r.content).toBe(true);
    expect(await snapshot(t.root)).toEqual(before);
    // Refused before any prompt: a path spelled inside the memory folder is never a project write.
    expect(agent.asked).toEqual([]);
  });

  it('asks the user about a project file named by its own path, and writes it when allowed', async () => {
    const t = await tree();
    const agent = await mainAgent(t);
    const [write] = await agent.run(attack(path.join(t.project, 'app.ts')).slice(0, 1));
    expect(write!.isError).toBeFalsy();
    expect(agent.asked).toEqual([path.join(t.project, 'app.ts')]);
    expect(await fs.readFile(path.join(t.project, 'app.ts'), 'utf8')).toBe('pwned');
  });

  it('refuses a main-agent memory write whose path has a `..` segment, even one that comes back in (docs/memory.md#auto-memory)', async () => {
    const t = await tree();
    const agent = await mainAgent(t);
    const [write] = await agent.run(attack(`${t.memory}/sub/../existing.md`).slice(0, 1));
    expect(write!.isError).toBe(true);
  });

  it('lets the extractor’s fork write, edit and delete inside the folder, bodies without **Why:** lines included', async () => {
    const t = await tree();
    const fresh = path.join(t.memory, 'sub', 'feedback_tabs.md');
    const results = await extractorFork(t, [
      { name: 'Write', input: { file_path: fresh, content: 'Indent with tabs. No frontmatter, no Why line.' } },
      { name: 'Read', input: { file_path: path.join(t.memory, 'existing.md') } },
      { name: 'Edit', input: { file_path: path.join(t.memory, 'existing.md'), old_string: 'original', new_string: 'updated' } },
      { name: 'Write', input: { file_path: path.join(t.memory, 'gone.md'), content: 'temporary' } },
      { name: 'Delete', input: { file_path: path.join(t.memory, 'gone.md') } },
    ] as ReturnType<typeof attack>);
    for (const r of results) expect(r.is_error, JSON.stringify(r.content)).toBeUndefined();
    expect(await fs.readFile(fresh, 'utf8')).toBe('Indent with tabs. No frontmatter, no Why line.');
    expect(await fs.readFile(path.join(t.memory, 'existing.md'), 'utf8')).toContain('updated');
    await expect(fs.stat(path.join(t.memory, 'gone.md'))).rejects.toThrow();
  });

  it('refuses a memory write carrying a secret with the rule and line, and writes nothing', async () => {
    const t = await tree();
    const key = ['ghp', '_', 'R7c2Kq9ZtW4mXb8Nv3Lp6Hs1Df5Gj0Ya2Ue7'].join('');
    const results = await extractorFork(t, [{ name: 'Write', input: { file_path: path.join(t.memory, 'ci.md'), content: `CI notes\ntoken: ${key}\n` } }] as ReturnType<typeof attack>);
    expect(results[0]!.is_error).toBe(true);
    expect(String(results[0]!.content)).toMatch(/rule \S+ on line 2 — leave the secret out/);
    expect(String(results[0]!.content)).not.toContain(key);
    await expect(fs.stat(path.join(t.memory, 'ci.md'))).rejects.toThrow();
  });
});
