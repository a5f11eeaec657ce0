import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseIndex, parseMemoryFile } from '../../../../common/memory-file/index.js';
import { copyKeys, copyTitle, indexWithCopy, renameMemory, versionLabel } from '../../../../main/core/team-sync/keep-both.js';
import { validateTeamMemoryKey } from '../../../../common/team-memory/key-validator.js';
import { freshRepo, makeDevice, type Device } from './sync-harness.js';
import { startSqliteSyncServer, type SyncServer } from './sync-server.js';

function* take2<T>(items: Iterable<T>): Generator<T> {
  let n = 0;
  for (const item of items) {
    if (n++ === 2) return;
    yield item;
  }
}

const memory = (name: string, body: string) => `---\nname: ${name}\ndescription: How we indent code\ntype: feedback\n---\n${body}`;
const BASE = memory('Prefers tabs', 'Indent with tabs.\n');
const ANA = memory('Prefers tabs', 'Indent with tabs, width 4.\n');
const DANA = memory('Prefers tabs', 'Indent with tabs, width 2.\n');
const CAPS = { indexMaxLines: 200, indexMaxChars: 25_000 };

describe('keep both, as text', () => {
  it('labels a version by its author and day, never mine or theirs', () => {
    expect(versionLabel('ana', new Date(2026, 11, 4, 15, 0))).toBe("ana's version, 4 Dec");
  });

  it('names the copy beside the original, with a key the server accepts even for a username with ..', () => {
    const keys = copyKeys('style/tabs.md', 'a..b', new Date(2026, 11, 4, 15, 0));
    const first = keys.next().value!;
    expect(first).toBe('style/tabs-a-b-2026-12-04.md');
    expect(validateTeamMemoryKey(first)).toEqual({ ok: true });
    expect(keys.next().value).toBe('style/tabs-a-b-2026-12-04-2.md');
  });

  it('renames the frontmatter name and keeps the rest; a file without frontmatter is untouched', () => {
    const renamed = renameMemory(DANA, "Prefers tabs (dana's version, 4 Dec)");
    expect(parseMemoryFile(renamed)).toMatchObject({ name: "Prefers tabs (dana's version, 4 Dec)", description: 'How we indent code', type: 'feedback' });
    expect(parseMemoryFile(renamed).body).toBe('Indent with tabs, width 2.\n');
    expect(parseMemoryFile(renameMemory('---\ntype: user\n---\nx\n', 'Named')).name).toBe('Named');
    expect(renameMemory('plain text\n', 'Named')).toBe('plain text\n');
  });

  it.each([
    ['folded (>)', 'name: >\n  Prefers\n  tabs'],
    ['literal (|)', 'name: |\n  Prefers\n  tabs'],
    ['double-quoted over two lines', 'name: "Prefers\n  tabs"'],
    ['single-quoted over two lines', "name: 'Prefers\n  tabs'"],
  ])('renames a name written %s whole, so the copy has valid frontmatter and a one-line title', (_style, nameYaml) => {
    const original = `---\n${nameYaml}\ndescription: How we indent code\n# kept comment\ntype: feedback\n---\nIndent with tabs, width 2.\n`;
    expect(parseMemoryFile(original).frontmatterError).toBeNull();
    const title = copyTitle(original, 'tabs.md', "dana's version, 4 Dec");
    expect(title).toBe("Prefers tabs (dana's version, 4 Dec)");
    const copy = renameMemory(original, title);
    expect(parseMemoryFile(copy)).toMatchObject({ frontmatterError: null, name: title, description: 'How we indent code', type: 'feedback', body: 'Indent with tabs, width 2.\n' });
    expect(copy).toContain('# kept comment');
    expect(copy).not.toMatch(/^\s+(Prefers|tabs)/m);
  });

  it('replaces a name and its indented continuation lines in frontmatter YAML cannot read', () => {
    const broken = '---\nname: >\n  Prefers\n  tabs\ndescription: [unclosed\ntype: feedback\n---\nbody\n';
    expect(parseMemoryFile(broken).frontmatterError).not.toBeNull();
    expect(renameMemory(broken, 'Copy')).toBe('---\nname: "Copy"\ndescription: [unclosed\ntype: feedback\n---\nbody\n');
  });

  it('points MEMORY.md at the copy right after the original, or at the end', () => {
    const index = '# Team\n- [Prefers tabs](tabs.md) — how we indent\n- [Deploys](deploys.md) — Fridays only\n';
    const next = indexWithCopy(index, 'tabs.md', 'tabs-dana-2026-12-04.md', "Prefers tabs (dana's version, 4 Dec)", 'How we indent code', CAPS).text;
    expect(parseIndex(next).map((p) => [p.title, p.target])).toEqual([
      ['Prefers tabs', 'tabs.md'],
      ["Prefers tabs (dana's version, 4 Dec)", 'tabs-dana-2026-12-04.md'],
      ['Deploys', 'deploys.md'],
    ]);
    expect(parseIndex(indexWithCopy('- [Other](other.md)\n', 'tabs.md', 'c.md', 'C', 'h', CAPS).text).map((p) => p.target)).toEqual(['other.md', 'c.md']);
    expect(indexWithCopy(null, 'tabs.md', 'c.md', 'C', 'h', CAPS)).toEqual({ text: '- [C](c.md) — h\n', limit: null });
  });

  it('leaves a full MEMORY.md as it is and says which cap the line for the copy would break', () => {
    const full = Array.from({ length: 200 }, (_, i) => `- [M${i}](m${i}.md) — h`).join('\n') + '\n';
    expect(indexWithCopy(full, 'm3.md', 'c.md', 'C', 'h', CAPS)).toEqual({ text: full, limit: 'lines' });
    const long = `- [Long](long.md) — ${'x'.repeat(24_990)}\n`;
    expect(indexWithCopy(long, 'long.md', 'c.md', 'C', 'h', CAPS)).toEqual({ text: long, limit: 'characters' });
    // One line under both caps still takes the copy.
    expect(indexWithCopy(full.split('\n').slice(1).join('\n'), 'm3.md', 'c.md', 'C', 'h', CAPS).limit).toBeNull();
  });
});

/** Two teammates and the real team server (SQLite): what the resolver is told, and what "keep both" leaves in both vaults. */
describe('conflicts between two teammates: keep both and when theirs arrived', () => {
  let server: SyncServer;
  let ana: Device;
  let dana: Device;
  beforeAll(async () => {
    server = await startSqliteSyncServer('strata-keep-both-');
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(async () => {
    const repo = freshRepo();
    ana = await makeDevice('ana', server.url, await server.member([repo]), repo);
    dana = await makeDevice('dana', server.url, await server.member([repo]), repo);
  });
  afterEach(() => {
    ana.log.assertNoErrors();
    dana.log.assertNoErrors();
  });

  async function conflictOnTabs(index = '- [Prefers tabs](tabs.md) — how we indent\n'): Promise<void> {
    await ana.write('MEMORY.md', index);
    await ana.write('tabs.md', BASE);
    await ana.engine.sync();
    await dana.engine.sync();
    await ana.write('tabs.md', ANA);
    await ana.engine.sync();
    await dana.write('tabs.md', DANA);
    expect((await dana.engine.sync()).conflicts).toEqual(['tabs.md']);
  }

  it('keeps the team version under the name and yours as a distinct, indexed memory both teammates read the same way', async () => {
    await conflictOnTabs();
    const view = await dana.engine.readConflict('tabs.md');
    expect(view).toMatchObject({ base: BASE, mine: DANA, theirs: ANA });
    expect(Date.now() - Date.parse(view.receivedAt)).toBeLessThan(60_000);

    await dana.engine.resolveConflict('tabs.md', { keep: 'both', author: 'dana' });
    const label = versionLabel('dana', new Date());
    const copyKey = copyKeys('tabs.md', 'dana', new Date()).next().value!;
    expect(await dana.read('tabs.md')).toBe(ANA);
    const copy = (await dana.read(copyKey))!;
    expect(parseMemoryFile(copy)).toMatchObject({ name: `Prefers tabs (${label})`, body: 'Indent with tabs, width 2.\n' });
    const index = parseIndex((await dana.read('MEMORY.md'))!);
    expect(index.map((p) => [p.title, p.target])).toEqual([
      ['Prefers tabs', 'tabs.md'],
      [`Prefers tabs (${label})`, copyKey],
    ]);

    const pushed = await dana.engine.sync();
    expect(pushed.conflicts).toEqual([]);
    expect(pushed.pushed.sort()).toEqual(['MEMORY.md', copyKey].sort());
    // Ana's vault: her own text under the original name, Dana's under Dana's name — no "theirs" anywhere.
    const pulled = await ana.engine.sync();
    expect(pulled.conflicts).toEqual([]);
    expect(await ana.read('tabs.md')).toBe(ANA);
    expect(parseMemoryFile((await ana.read(copyKey))!).name).toBe(`Prefers tabs (${label})`);
    expect(await ana.read('MEMORY.md')).toBe(await dana.read('MEMORY.md'));
    // Both go on editing the original: one file, so no second conflict from a twin.
    const names = new Set([parseMemoryFile((await ana.read('tabs.md'))!).name, parseMemoryFile((await ana.read(copyKey))!).name]);
    expect(names.size).toBe(2);
  });

  it('keeps both at a full MEMORY.md without a 201st line, says so, and Undo still puts the conflict back', async () => {
    const lines = Array.from({ length: 199 }, (_, i) => `- [Note ${i}](note-${i}.md) — filler`);
    await conflictOnTabs(['- [Prefers tabs](tabs.md) — how we indent', ...lines].join('\n') + '\n');
    const indexBefore = await dana.read('MEMORY.md');

    const result = await dana.engine.resolveConflict('tabs.md', { keep: 'both', author: 'dana' });
    const copyKey = copyKeys('tabs.md', 'dana', new Date()).next().value!;
    expect(result).toMatchObject({ written: [copyKey, 'tabs.md'], indexSkipped: { limit: 'lines', maxLines: 200 } });
    expect(parseMemoryFile((await dana.read(copyKey))!).body).toBe('Indent with tabs, width 2.\n');
    expect(await dana.read('MEMORY.md')).toBe(indexBefore);

    await dana.engine.undoKeepBoth('tabs.md');
    expect(await dana.read('tabs.md')).toBe(DANA);
    expect(await dana.read(copyKey)).toBeNull();
    expect(await dana.read('MEMORY.md')).toBe(indexBefore);
  });

  it('dates theirs by when the version now shown arrived, also when a newer one replaced it', async () => {
    await conflictOnTabs();
    const first = await dana.engine.readConflict('tabs.md');
    await new Promise((r) => setTimeout(r, 30));
    const newer = memory('Prefers tabs', 'Tabs, width 8.\n');
    await ana.write('tabs.md', newer);
    await ana.engine.sync();
    expect((await dana.engine.sync()).conflicts).toEqual(['tabs.md']);
    const second = await dana.engine.readConflict('tabs.md');
    expect(second.theirs).toBe(newer);
    expect(Date.parse(second.receivedAt)).toBeGreaterThan(Date.parse(first.receivedAt));
  });

  it('makes no copy when yours already equals theirs, and none of MEMORY.md in MEMORY.md', async () => {
    await conflictOnTabs();
    await dana.write('tabs.md', ANA);
    const indexBefore = await dana.read('MEMORY.md');
    await dana.engine.resolveConflict('tabs.md', { keep: 'both', author: 'dana' });
    expect(await dana.read('tabs.md')).toBe(ANA);
    expect(await dana.read(copyKeys('tabs.md', 'dana', new Date()).next().value!)).toBeNull();
    expect(await dana.read('MEMORY.md')).toBe(indexBefore);

    await ana.write('MEMORY.md', `${indexBefore}- [Deploys](deploys.md) — Fridays only\n`);
    await ana.engine.sync();
    await dana.write('MEMORY.md', `${indexBefore}- [Reviews](reviews.md) — two approvals\n`);
    expect((await dana.engine.sync()).conflicts).toEqual(['MEMORY.md']);
    await dana.engine.resolveConflict('MEMORY.md', { keep: 'both', author: 'dana' });
    const copy = copyKeys('MEMORY.md', 'dana', new Date()).next().value!;
    expect(await dana.read(copy)).toContain('Reviews');
    expect(await dana.read('MEMORY.md')).toBe(`${indexBefore}- [Deploys](deploys.md) — Fridays only\n`);
  });

  it('keeps both of a memory whose name spans lines: the copy that reaches the teammate has valid frontmatter', async () => {
    const spanning = (body: string) => `---\nname: >\n  Prefers\n  tabs\ndescription: How we indent code\ntype: feedback\n---\n${body}`;
    await ana.write('MEMORY.md', '- [Prefers tabs](tabs.md) — how we indent\n');
    await ana.write('tabs.md', spanning('Indent with tabs.\n'));
    await ana.engine.sync();
    await dana.engine.sync();
    await ana.write('tabs.md', spanning('Indent with tabs, width 4.\n'));
    await ana.engine.sync();
    await dana.write('tabs.md', spanning('Indent with tabs, width 2.\n'));
    expect((await dana.engine.sync()).conflicts).toEqual(['tabs.md']);
    await dana.engine.resolveConflict('tabs.md', { keep: 'both', author: 'dana' });
    await dana.engine.sync();
    await ana.engine.sync();
    const copyKey = copyKeys('tabs.md', 'dana', new Date()).next().value!;
    const label = versionLabel('dana', new Date());
    for (const device of [dana, ana]) {
      const copy = parseMemoryFile((await device.read(copyKey))!);
      expect(copy).toMatchObject({ frontmatterError: null, name: `Prefers tabs (${label})`, flags: [], body: 'Indent with tabs, width 2.\n' });
      expect(parseIndex((await device.read('MEMORY.md'))!).map((p) => p.title)).toEqual(['Prefers tabs', `Prefers tabs (${label})`]);
    }
  });

  it('numbers a second copy of the same day instead of overwriting the first', async () => {
    await conflictOnTabs();
    await dana.engine.resolveConflict('tabs.md', { keep: 'both', author: 'dana' });
    await dana.engine.sync();
    await ana.engine.sync();
    await ana.write('tabs.md', memory('Prefers tabs', 'Tabs everywhere.\n'));
    await ana.engine.sync();
    await dana.write('tabs.md', memory('Prefers tabs', 'Tabs except YAML.\n'));
    expect((await dana.engine.sync()).conflicts).toEqual(['tabs.md']);
    await dana.engine.resolveConflict('tabs.md', { keep: 'both', author: 'dana' });
    const [first, second] = [...take2(copyKeys('tabs.md', 'dana', new Date()))];
    expect(parseMemoryFile((await dana.read(first!))!).body).toBe('Indent with tabs, width 2.\n');
    expect(parseMemoryFile((await dana.read(second!))!).body).toBe('Tabs except YAML.\n');
  });

  it('undoes keep both after it reached the teammate: the conflict is back as it was, the copy gone from both vaults', async () => {
    await conflictOnTabs();
    const indexBefore = await dana.read('MEMORY.md');
    await dana.engine.resolveConflict('tabs.md', { keep: 'both', author: 'dana' });
    const copyKey = copyKeys('tabs.md', 'dana', new Date()).next().value!;
    await dana.engine.sync();
    await ana.engine.sync();
    expect(await ana.read(copyKey)).not.toBeNull();

    expect((await dana.engine.undoKeepBoth('tabs.md')).sort()).toEqual(['MEMORY.md', copyKey, 'tabs.md'].sort());
    expect(await dana.read('tabs.md')).toBe(DANA);
    expect(await dana.read(copyKey)).toBeNull();
    expect(await dana.read('MEMORY.md')).toBe(indexBefore);
    expect(await dana.engine.listConflicts()).toEqual(['tabs.md']);
    expect(await dana.engine.readConflict('tabs.md')).toMatchObject({ base: BASE, mine: DANA, theirs: ANA });
    // The next sync takes the copy back from the team and holds yours back until the conflict is resolved again.
    expect((await dana.engine.sync()).conflicts).toEqual(['tabs.md']);
    await ana.engine.sync();
    expect(await ana.read(copyKey)).toBeNull();
    expect(await ana.read('tabs.md')).toBe(ANA);
    expect(await ana.read('MEMORY.md')).toBe(indexBefore);
    // Once undone, there is nothing more to undo.
    await expect(dana.engine.undoKeepBoth('tabs.md')).rejects.toThrow('There is no Keep both of tabs.md to undo.');
  });

  it('leaves the files alone and says which changed when one was edited after keep both', async () => {
    await conflictOnTabs();
    await dana.engine.resolveConflict('tabs.md', { keep: 'both', author: 'dana' });
    const copyKey = copyKeys('tabs.md', 'dana', new Date()).next().value!;
    const edited = `${(await dana.read(copyKey))!}More words.\n`;
    await dana.write(copyKey, edited);
    const index = await dana.read('MEMORY.md');
    await expect(dana.engine.undoKeepBoth('tabs.md')).rejects.toThrow(`${copyKey} changed after Keep both, so nothing was undone`);
    expect(await dana.read(copyKey)).toBe(edited);
    expect(await dana.read('tabs.md')).toBe(ANA);
    expect(await dana.read('MEMORY.md')).toBe(index);
    expect(await dana.engine.listConflicts()).toEqual([]);
  });
});
