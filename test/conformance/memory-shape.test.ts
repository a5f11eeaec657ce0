import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMemoryFile, type MemoryShape } from '../../common/memory-file/index.js';
import { slug } from '../../common/paths/slug.js';
import type { WireRequest } from '../fakes/anthropic-server/index.js';
import { openVault } from '../main/core/vault/vault-helpers.js';
import { claudeCode, NEWEST_ORACLE_VERSION, ORACLE_VERSION, type Oracle } from './claude-code-oracle.js';
import { conformanceRig, world, write, type World } from './fixture-world.js';
import { startContext, type Section } from './model-input.js';

/**
 * The memory file shapes against both real Claude Codes (docs/claude-code-parity.md#the-memory-file-shapes):
 * 2.1.88 writes a memory as the model wrote it; the newest stamps each one it writes (kebab-case `name`,
 * `metadata: {node_type, type, originSessionId, modified}`). With the shape of that version chosen in
 * Settings, Strata's agent must leave the same file on disk for the same Write; each program must read
 * what the other wrote. Each version is skipped, with the reason, when the registry cannot provide it.
 */
const versions: { oracle: Oracle; shape: MemoryShape }[] = [
  { oracle: await claudeCode(ORACLE_VERSION), shape: '2.1.88' },
  { oracle: await claudeCode(NEWEST_ORACLE_VERSION), shape: 'metadata' },
];

const memoryDir = (w: World) => path.join(w.vault, 'projects', slug(w.project), 'memory');
const writePrompt = (file: string, content: string) => `Remember this. [[write ${file}]]${content}[[end]]`;
/** A memory already there is read, then written (neither program overwrites a file its agent has not read). */
const rewritePrompt = (file: string, content: string) => `Update this memory. [[rewrite ${file}]]${content}[[end]]`;

/** What the model writes, in the shape each version's system prompt asks for, plus one in the other shape. */
const fixtures = {
  newShape: '---\nname: launch-day\ndescription: when the launch is\nmetadata:\n  type: project\n---\n\nThe launch is on Friday; [[release-owner]] signs it off.\n',
  oldShape: '---\nname: Release owner\ndescription: who signs the release off\ntype: user\n---\n\nDana signs releases off.\n',
  /** A memory written before, already naming its conversation: a rewrite keeps that and is dated. */
  stamped: '---\nname: deploy-window\ndescription: when deploys may run\nmetadata:\n  node_type: memory\n  type: project\n  originSessionId: 11111111-1111-4111-8111-111111111111\n  modified: 2020-01-01T00:00:00.000Z\n---\n\nDeploys run before noon.\n',
};

/** A written file with the writer's own session id and the time of writing put in words, for comparing writers. */
function normalized(text: string, sessionId: string, from: number): string {
  return text.replaceAll(sessionId, '<its session>').replace(/^(\s*modified: )(\S+)$/gm, (line, key: string, iso: string) => {
    const t = Date.parse(iso);
    return t >= from - 1000 && t <= Date.now() + 1000 ? `${key}<time of the write>` : line;
  });
}

for (const { oracle, shape } of versions) {
  const reason = 'skip' in oracle ? oracle.skip : '';
  const version = 'skip' in oracle ? '' : oracle.version;
  const { claude, strata, captured } = conformanceRig(oracle);
  /** A fixture whose vault has the shape of this version chosen in Settings. */
  const shapedWorld = async () => {
    const w = await world();
    await write(path.join(w.vault, '.strata', 'settings.json'), JSON.stringify({ memoryShape: shape }));
    await fs.mkdir(memoryDir(w), { recursive: true });
    return w;
  };

  describe.skipIf(reason !== '')(`memory files: Strata (${shape} shape) and Claude Code ${version}`, () => {
    it('leave the same memories on disk for the same Writes: a new-shape one, an old-shape one, a rewrite of a stamped one', { timeout: 120_000 }, async () => {
      const w = await shapedWorld();
      const names = Object.keys(fixtures) as (keyof typeof fixtures)[];
      const file = (fixture: string, who: string) => path.join(memoryDir(w), `${fixture}-${who}.md`);
      // The rewrite: each program overwrites its own copy of a memory already there.
      for (const who of ['claude', 'strata']) await write(file('stamped', who), fixtures.stamped.replace('before noon', 'after lunch'));
      const prompt = (who: string) => names.map((f) => (f === 'stamped' ? rewritePrompt : writePrompt)(file(f, who), fixtures[f])).join('\n');
      const from = Date.now();
      const c = await claude(w, prompt('claude'));
      const s = await strata(w, prompt('strata'));
      for (const fixture of names) {
        const content = fixtures[fixture];
        const byClaude = normalized(await fs.readFile(file(fixture, 'claude'), 'utf8'), c.result.session_id, from);
        const byStrata = normalized(await fs.readFile(file(fixture, 'strata'), 'utf8'), s.sessionId, from);
        if (shape === '2.1.88') {
          // 2.1.88 writes what the model wrote; Strata adds the conversation to a new memory (a documented difference).
          expect(byClaude, fixture).toBe(content);
          const added = fixture === 'stamped' ? '' : 'originSessionId: <its session>\n';
          expect(byStrata, fixture).toBe(content.replace(/\n---\n/, `\n${added}---\n`));
        } else {
          expect(byClaude, fixture).not.toBe(content);
          expect(byStrata, fixture).toBe(byClaude);
        }
      }
    });

    it('Strata reads the memories Claude Code wrote: fields, type, conversation and [[links]]', { timeout: 120_000 }, async () => {
      const w = await shapedWorld();
      const c1 = await claude(w, `${writePrompt(path.join(memoryDir(w), 'launch.md'), fixtures.newShape)}\n${writePrompt(path.join(memoryDir(w), 'owner.md'), fixtures.oldShape)}`);
      const rel = (name: string) => `projects/${slug(w.project)}/memory/${name}`;
      const launch = parseMemoryFile(await fs.readFile(path.join(memoryDir(w), 'launch.md'), 'utf8'));
      expect(launch).toMatchObject({ name: 'launch-day', description: 'when the launch is', type: 'project', flags: [] });
      expect(launch.originSessionId).toBe(shape === 'metadata' ? c1.result.session_id : null);
      const { vault } = await openVault(w.vault);
      try {
        const listed = vault.list().filter((m) => m.path.startsWith(rel('')));
        expect(listed.find((m) => m.path === rel('launch.md'))).toMatchObject({ type: 'project', description: 'when the launch is', error: null });
        expect(listed.find((m) => m.path === rel('owner.md'))).toMatchObject({ type: 'user', description: 'who signs the release off', error: null });
        // `[[release-owner]]` names the other memory by its slug, whichever shape its name was written in.
        expect((await vault.memoryLinks(rel('launch.md'))).links).toEqual([{ name: 'release-owner', path: rel('owner.md'), title: expect.any(String) }]);
        expect((await vault.memoryLinks(rel('owner.md'))).backlinks.map((b) => b.path)).toEqual([rel('launch.md')]);
      } finally {
        // Closed before the fixture folder is removed (it writes its search cache there on close).
        await vault.close();
      }
    });

    it('Claude Code reads what Strata wrote: its index at the start, and its memories as already stamped', { timeout: 120_000 }, async () => {
      const w = await shapedWorld();
      const { vault } = await openVault(w.vault, { memoryShape: () => shape });
      await vault.createMemory({ projectSlug: slug(w.project), team: false, fileName: 'deploy.md', name: 'Deploy window', description: 'when deploys may run', type: 'project', body: 'Before noon.' });
      await vault.close();
      const s = await strata(w, writePrompt(path.join(memoryDir(w), 'launch.md'), fixtures.newShape));
      const byStrata = await fs.readFile(path.join(memoryDir(w), 'launch.md'), 'utf8');
      // The index New memory wrote is what Claude Code injects, as Strata does.
      const c = await captured(() => claude(w, 'Hello'));
      const t = await captured(() => strata(w, 'Hello'));
      const index = (list: Section[]) => list.find((x) => x.path === path.join(memoryDir(w), 'MEMORY.md'));
      expect(index(startContext(c.requests[0]!))?.content).toContain('[Deploy window](deploy.md)');
      expect(index(startContext(t.requests[0]!))).toEqual(index(startContext(c.requests[0]!)));
      // Both frame recalled memories alike in their system prompts (2.1.332: background, true when written).
      const framing = (r: WireRequest) => /Recalled memories[^\n]*?when written\./.exec(JSON.stringify(r.system ?? ''))?.[0] ?? null;
      expect(framing(t.requests[0]!)).toBe(framing(c.requests[0]!));
      if (shape === 'metadata') expect(framing(c.requests[0]!)).not.toBeNull();
      // Claude Code rewriting Strata's memory keeps the conversation Strata recorded: it read Strata's frontmatter.
      const body = parseMemoryFile(byStrata).body;
      const rewrite = byStrata.replace(body, '\nThe launch moved to Monday.\n');
      await claude(w, rewritePrompt(path.join(memoryDir(w), 'launch.md'), rewrite));
      const after = parseMemoryFile(await fs.readFile(path.join(memoryDir(w), 'launch.md'), 'utf8'));
      expect(after).toMatchObject({ originSessionId: s.sessionId, type: 'project', name: 'launch-day', body: '\nThe launch moved to Monday.\n' });
      for (const file of ['deploy.md', 'launch.md']) {
        expect(parseMemoryFile(await fs.readFile(path.join(memoryDir(w), file), 'utf8')).flags, file).toEqual([]);
      }
    });
  });

  if (reason !== '') {
    describe(`memory files against Claude Code (${shape} shape)`, () => {
      it.skip(`skipped: ${reason}`, () => undefined);
    });
  }
}
