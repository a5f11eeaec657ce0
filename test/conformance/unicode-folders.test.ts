import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProjectPaths } from '../../main/core/paths/project-paths.js';
import { claudeCode } from './claude-code-oracle.js';
import { conformanceRig, world, type World } from './fixture-world.js';
import { startContext, textOf, type Section } from './model-input.js';
import type { WireRequest } from '../fakes/anthropic-server/validate.js';

/**
 * Project folders whose names are spelled in decomposed Unicode (NFD, as macOS often stores them), in
 * NFC, or in both at once, against the real Claude Code (docs/claude-code-parity.md, docs/memory.md#where-things-live).
 * Claude Code takes `realpath(cwd)` in NFC as its project; on macOS both spellings reach one folder. On
 * Linux they are two names, so each NFD-spelled folder here gets its NFC spelling as a link to it: Claude
 * Code then starts in it as it would on a Mac. Skipped, with the reason, when the oracle is absent.
 */
const oracle = await claudeCode(process.env.STRATA_CONFORMANCE_VERSION);
const reason = 'skip' in oracle ? oracle.skip : '';

const { claude, strata, captured } = conformanceRig(oracle);

const NFC_E = '\u00e9';
const NFD_E = 'e\u0301';

/** Folder names under `~/work` (one or two levels), each spelled as its case says. */
const spellings: [string, string[]][] = [
  ['NFC', [`caf${NFC_E}`]],
  ['NFD', [`caf${NFD_E}`]],
  ['mixed NFC and NFD in one name', [`caf${NFD_E} r${NFC_E}sum${NFD_E}`]],
  ['an NFD parent around an NFC folder', [`caf${NFD_E}`, `r${NFC_E}sum${NFC_E}`]],
  ['NFD, over 200 characters once slugged', [`caf${NFD_E}-${'y'.repeat(210)}`]],
];

/** Makes `~/work/<names…>` as spelled, with each NFD-spelled level also reachable by its NFC spelling. */
async function projectSpelled(w: World, names: string[]): Promise<string> {
  let dir = path.join(w.home, 'work');
  for (const name of names) {
    const spelled = path.join(dir, name);
    await fs.mkdir(spelled);
    const composed = path.join(dir, name.normalize('NFC'));
    if (composed !== spelled) await fs.symlink(spelled, composed);
    dir = spelled;
  }
  return dir;
}

const systemText = (request: WireRequest): string =>
  typeof request.system === 'string' ? request.system : textOf(request.system ?? []);

/** The memory folder Claude Code's system prompt names (2.1.88: "a persistent, file-based memory system at `DIR`"). */
function claudeMemoryDir(request: WireRequest, vault: string): string {
  const escaped = vault.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const named = new RegExp(`(${escaped}/projects/[^\\s\`'"]+/memory)/?[\\s\`'"]`).exec(systemText(request));
  if (!named) throw new Error('Claude Code named no memory folder in its system prompt');
  return named[1]!;
}

const memoryIndex = (list: Section[]) => list.find((s) => s.path.endsWith(`${path.sep}MEMORY.md`));

describe.skipIf(reason !== '')(`Strata and Claude Code ${'skip' in oracle ? '' : oracle.version} on project folders spelled in NFC and NFD`, () => {
  for (const [label, names] of spellings) {
    it(`use one memory folder for a project spelled in ${label}`, { timeout: 180_000 }, async () => {
      const w = await world();
      const project = await projectSpelled(w, names);
      const strataMemory = (await ProjectPaths.resolve(w.vault, project)).memoryDir;

      // Claude Code started in the folder as spelled names its memory folder in its system prompt…
      const first = await captured(() => claude(w, 'Hello', { cwd: project }));
      const claudeMemory = claudeMemoryDir(first.requests[0]!, w.vault);
      expect(claudeMemory).toBe(strataMemory);

      // …writes its index there, and Strata reads that index at its start; the memory file is where Strata lists it.
      const index = `- [Caf${NFC_E} opening hours](project_hours.md) — the caf${NFC_E} opens at eight\n`;
      const memo = '---\nname: Café opening hours\ndescription: when the café opens\ntype: project\n---\nThe café opens at eight.\n';
      await claude(w, `Remember the hours. [[write ${claudeMemory}/project_hours.md]]${memo}[[end]] [[write ${claudeMemory}/MEMORY.md]]${index}[[end]]`, { cwd: project });
      // (2.1.332 rewrites the frontmatter it writes; the body is the same in every version.)
      expect(await fs.readFile(path.join(strataMemory, 'project_hours.md'), 'utf8')).toContain('The café opens at eight.');
      const got = { claude: await captured(() => claude(w, 'Hello', { cwd: project })), strata: await captured(() => strata(w, 'Hello', { cwd: project })) };
      const claudeIndex = memoryIndex(startContext(got.claude.requests[0]!));
      expect(claudeIndex?.content).toContain('opens at eight');
      expect(memoryIndex(startContext(got.strata.requests[0]!))).toEqual(claudeIndex);
      // The one folder Claude Code wrote in is the only one under projects/ with a memory folder.
      const withMemory = [];
      for (const dir of await fs.readdir(path.join(w.vault, 'projects'))) {
        if (await fs.stat(path.join(w.vault, 'projects', dir, 'memory')).then(() => true, () => false)) withMemory.push(dir);
      }
      expect(withMemory).toEqual([path.basename(path.dirname(strataMemory))]);
    });
  }
});

if (reason !== '') {
  describe('Claude Code conformance on NFC and NFD folders', () => {
    it.skip(`skipped: ${reason}`, () => undefined);
  });
}

