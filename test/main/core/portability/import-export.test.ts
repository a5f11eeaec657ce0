import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseIndex } from '../../../../main/core/vault/memory-index.js';
import {
  collectMemories, memoriesMarkdown, memoriesZip, parsePastedMemories, previewNotesAt as previewNotesWith, readZip, writeImport as writeWith,
} from '../../../../main/core/portability/index.js';
import type { ImportItem } from '../../../../common/domain/portability.js';
import { vaultSecretScan } from '../../../../main/core/secrets/index.js';
import type { Vault } from '../../../../main/core/vault/index.js';
import { parseMemoryFile } from '../../../../common/memory-file/index.js';
import { tempDir } from '../../../support/temp-dir.js';
import { memoryText, openVault } from '../vault/vault-helpers.js';

const NOW = Date.UTC(2026, 11, 4, 15);
const SLUG = '-work-penny';
const DIR = `projects/${SLUG}/memory`;

async function vaultWith(files: Record<string, string> = {}) {
  const root = await tempDir('strata-portability-');
  for (const [rel, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await fs.writeFile(path.join(root, rel), text);
  }
  return { root, ...(await openVault(root)) };
}

// Scanned as the app scans: the vault's rules and its "Not a secret" list.
const previewNotesAt = async (where: string, now: number, vaultRoot?: string) => previewNotesWith(where, now, { scan: vaultSecretScan(vaultRoot ?? (await tempDir())), shape: '2.1.88' });
const writeImport = (vault: Vault, target: { projectSlug: string; team: boolean }, items: readonly ImportItem[]) => writeWith(vault, target, items, vaultSecretScan(vault.root));

const indexTargets = async (root: string, dir = DIR) => parseIndex(await fs.readFile(path.join(root, dir, 'MEMORY.md'), 'utf8')).map((l) => l.target).sort();

describe('import of a pasted answer', () => {
  it('writes the kept, edited items through the vault: new files, MEMORY.md lines (its old text in history), no overwrite', async () => {
    const existing = memoryText('Dog', 'The dog', 'Biscuit', 'user');
    const { root, vault } = await vaultWith({
      [`${DIR}/user_has_a_dog_named_biscuit.md`]: existing,
      [`${DIR}/MEMORY.md`]: '- [Dog](user_has_a_dog_named_biscuit.md) — the dog\n',
    });
    const preview = parsePastedMemories('- [2024-05-12] Has a dog named Biscuit\n- Prefers short answers\n- Likes jazz', 'chatgpt', NOW, vaultSecretScan(root));
    const [dog, short] = preview.items;
    const kept = [dog!, { ...short!, name: 'Short answers', description: 'Keep answers short' }];
    const result = await writeImport(vault, { projectSlug: SLUG, team: false }, kept);

    expect(result.written).toEqual([`${DIR}/user_has_a_dog_named_biscuit_2.md`, `${DIR}/feedback_prefers_short_answers.md`]);
    expect(await fs.readFile(path.join(root, DIR, 'user_has_a_dog_named_biscuit.md'), 'utf8')).toBe(existing);
    const written = await vault.read(result.written[1]!);
    expect(written.frontmatter).toMatchObject({ name: 'Short answers', description: 'Keep answers short', type: 'feedback' });
    expect(written.body.trim()).toBe('Prefers short answers.\n\nImported from ChatGPT on 2026-12-04.');
    expect(await indexTargets(root)).toEqual(['feedback_prefers_short_answers.md', 'user_has_a_dog_named_biscuit.md', 'user_has_a_dog_named_biscuit_2.md']);
    const indexHistory = await vault.timeline(`${DIR}/MEMORY.md`);
    expect(indexHistory.map((v) => v.reason)).toContain('index-edit');
    expect(existsSync(path.join(root, DIR, 'user_likes_jazz.md'))).toBe(false);
  });

  it('writes the shape chosen in Settings: the metadata shape, dated', async () => {
    const root = await tempDir('strata-portability-');
    const { vault } = await openVault(root, { memoryShape: () => 'metadata' });
    const [item] = parsePastedMemories('- Prefers short answers', 'chatgpt', NOW, vaultSecretScan(root)).items;
    const result = await writeImport(vault, { projectSlug: SLUG, team: false }, [{ ...item!, name: 'Short answers', description: 'Keep answers short' }]);
    const text = await fs.readFile(path.join(root, result.written[0]!), 'utf8');
    expect(parseMemoryFile(text)).toMatchObject({ name: 'short-answers', type: 'feedback', shape: 'metadata', flags: [] });
    expect(text).toMatch(/^ {2}modified: \d{4}-\d\d-\d\dT[\d:.]+Z$/m);
    expect(text).not.toMatch(/^type:/m);
  });

  it('refuses a file name that would leave the memory folder, writing nothing', async () => {
    const { root, vault } = await vaultWith();
    const [item] = parsePastedMemories('- Likes jazz', 'claude', NOW, vaultSecretScan(root)).items;
    await expect(writeImport(vault, { projectSlug: SLUG, team: false }, [{ ...item!, fileName: '../../escape.md' }])).rejects.toThrow(/Not a memory file name/);
    expect(existsSync(path.join(root, 'projects'))).toBe(false);
  });
});

describe('export', () => {
  const files: Record<string, string> = {
    [`${DIR}/MEMORY.md`]: '# Memory\n- [Owner](project_owner.md) — who owns Penny\n- [Tone](feedback_tone.md) — how to write\n',
    [`${DIR}/project_owner.md`]: memoryText('Owner', 'who owns Penny', 'Mei owns Penny.\n\n**Why:** she started it.', 'project'),
    [`${DIR}/feedback_tone.md`]: '---\r\nname: "Tone: plain"\r\ndescription: how to write\r\ntype: feedback\r\n---\r\n\r\nPlain words, no emojis. 🙂 café\r\n',
    [`${DIR}/team/reference_board.md`]: memoryText('Board', 'the planning board', 'https://board.example.com', 'reference'),
    [`projects/-other/memory/user_city.md`]: memoryText('City', 'where I live', 'Lisbon', 'user'),
  };

  it('zips a project memory so that importing the zip into another vault gives the same files', async () => {
    const a = await vaultWith(files);
    const memories = await collectMemories(a.vault, SLUG);
    expect(memories.map((m) => m.path)).toEqual([`${DIR}/feedback_tone.md`, `${DIR}/MEMORY.md`, `${DIR}/project_owner.md`, `${DIR}/team/reference_board.md`]);
    const zipFile = path.join(await tempDir(), 'export.zip');
    await fs.writeFile(zipFile, memoriesZip(memories.filter((m) => !m.path.includes('/team/')), NOW));
    // Another zip reader accepts the archive (Info-ZIP's unzip, where installed).
    try {
      execFileSync('unzip', ['-tq', zipFile], { stdio: 'pipe' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }

    const preview = await previewNotesAt(zipFile, NOW);
    expect(preview.source).toBe('strata');
    expect(preview.skipped).toEqual([{ what: 'work-penny/memory/MEMORY.md', why: 'a memory index; it is rebuilt from the imported files' }]);
    const b = await vaultWith();
    await writeImport(b.vault, { projectSlug: SLUG, team: false }, preview.items);
    for (const name of ['feedback_tone.md', 'project_owner.md']) {
      expect(await fs.readFile(path.join(b.root, DIR, name), 'utf8')).toBe(files[`${DIR}/${name}`]);
    }
    expect(await indexTargets(b.root)).toEqual(await indexTargets(a.root));
  });

  it('zips the whole vault with every project, and refuses a damaged zip', async () => {
    const a = await vaultWith(files);
    const zip = memoriesZip(await collectMemories(a.vault, null), NOW);
    const entries = readZip(zip);
    // Each project's folder by its name, not its slug (no project registered here: the vault's name for the slug).
    expect(entries.map((e) => e.name)).toContain('other/memory/user_city.md');
    expect(entries.every((e) => !e.name.startsWith('projects/'))).toBe(true);
    expect(entries.find((e) => e.name.endsWith('feedback_tone.md'))!.data.toString('utf8')).toBe(files[`${DIR}/feedback_tone.md`]);
    const damaged = Buffer.from(zip);
    const at = zip.indexOf('Lisbon');
    damaged[at] = damaged[at]! ^ 0xff;
    expect(() => readZip(damaged)).toThrow(/damaged/);
    expect(() => readZip(Buffer.from('not a zip at all, just text'))).toThrow(/not a zip file/);
  });

  it('writes one markdown document to paste elsewhere: grouped by kind, no frontmatter, team memories marked', async () => {
    const a = await vaultWith(files);
    const doc = memoriesMarkdown(await collectMemories(a.vault, SLUG), NOW);
    expect(doc).toContain('Exported from Strata on 2026-12-04. Please remember the following about me and how I work.\n');
    expect(doc).not.toContain('each item says when');
    expect(doc).not.toContain('type: ');
    expect(doc).not.toContain('MEMORY.md');
    expect(doc).toMatch(/### How I like you to work\n\n- \*\*Tone: plain\*\*: Plain words, no emojis\. 🙂 café/);
    expect(doc).toMatch(/### What I am working on\n\n- \*\*Owner\*\*: Mei owns Penny\.\n {2}\*\*Why:\*\* she started it\./);
    expect(doc).toContain('- **Board** (shared with my team): https://board.example.com');
  });
});

describe('import of a notes folder', () => {
  it('turns plain notes into memories with provenance, keeps memory files as they are, and never follows a link out', async () => {
    const notes = await tempDir('strata-notes-');
    const outside = await tempDir('strata-outside-');
    await fs.mkdir(path.join(notes, 'trips'));
    await fs.writeFile(path.join(notes, 'trips', 'Japan plans.md'), '# Japan trip\n\nFly to Osaka on May 3; ryokan in Kyoto.\n');
    await fs.writeFile(path.join(notes, 'user_city.md'), memoryText('City', 'where I live', 'Lisbon', 'user'));
    await fs.writeFile(path.join(notes, 'big.md'), 'x'.repeat(1024 * 1024 + 1));
    await fs.writeFile(path.join(notes, 'photo.jpg'), 'jpeg');
    await fs.writeFile(path.join(outside, 'secret.md'), '# Outside\n');
    await fs.symlink(path.join(outside, 'secret.md'), path.join(notes, 'linked.md'));

    const preview = await previewNotesAt(notes, NOW);
    expect(preview.items.map((i) => i.fileName)).toEqual(['user_japan_trip.md', 'user_city.md']);
    const [trip, city] = preview.items;
    expect(city!.verbatim).toBe(memoryText('City', 'where I live', 'Lisbon', 'user'));
    expect(trip).toMatchObject({ name: 'Japan trip', description: 'Fly to Osaka on May 3; ryokan in Kyoto.' });
    expect(trip!.body).toBe(`# Japan trip\n\nFly to Osaka on May 3; ryokan in Kyoto.\n\nImported from a folder of notes (${path.basename(notes)}/trips/Japan plans.md) on 2026-12-04.`);
    expect(preview.skipped).toEqual([{ what: 'big.md', why: 'over 1 MB, too large for a memory' }]);
  });
});
