import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewPaste, writeImport, writeZip } from '../../../../main/core/portability/index.js';
import { slug } from '../../../../main/core/paths/slug.js';
import { vaultSecretScan } from '../../../../main/core/secrets/index.js';
import { parseIndex } from '../../../../main/core/vault/memory-index.js';
import { compileChild } from '../../../support/compiled-child.js';
import { tempDir } from '../../../support/temp-dir.js';
import { openVault } from '../vault/vault-helpers.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 11, 4, 15);
const SLUG = '-work-penny';
const DIR = `projects/${SLUG}/memory`;
const target = { projectSlug: SLUG, team: false };
const pasted = '- [2024-05-12] Has a dog named Biscuit\n- Prefers short answers\n- Likes jazz\n- Is building a budgeting app called Penny';

// A write killed midway may leave its hidden temp file; it is no memory.
const names = async (dir: string) => (await fs.readdir(dir)).filter((n) => n !== 'MEMORY.md' && !n.startsWith('.')).sort();
const indexTargets = async (dir: string) => parseIndex(await fs.readFile(path.join(dir, 'MEMORY.md'), 'utf8')).map((l) => l.target).sort();

describe('an import run again', () => {
  it('writes nothing twice: what the first run wrote is reported already imported, the line it had not written yet is added', async () => {
    const root = await tempDir('strata-import-resume-');
    const { vault } = await openVault(root, { memoryShape: () => 'metadata' });
    const guard = { scan: vaultSecretScan(root), shape: vault.memoryShape() };
    const items = previewPaste(pasted, 'chatgpt', NOW, guard).items;
    // The first run stopped after two files, the second one before its MEMORY.md line.
    const first = await writeImport(vault, target, items.slice(0, 2), guard.scan);
    const index = path.join(root, DIR, 'MEMORY.md');
    await fs.writeFile(index, (await fs.readFile(index, 'utf8')).split('\n').filter((l) => !l.includes(path.basename(first.written[1]!))).join('\n'));
    await vault.idle();

    // Run again the next day: each memory's provenance date (and, in this shape, its modified time) differs.
    const again = previewPaste(pasted, 'chatgpt', NOW + DAY, guard).items;
    const result = await writeImport(vault, target, again, guard.scan);
    expect(result.alreadyImported).toEqual(first.written);
    expect(result.written).toEqual([`${DIR}/user_likes_jazz.md`, `${DIR}/project_building_a_budgeting_app_called_penny.md`]);
    const dir = path.join(root, DIR);
    expect(await names(dir)).toEqual(['feedback_prefers_short_answers.md', 'project_building_a_budgeting_app_called_penny.md', 'user_has_a_dog_named_biscuit.md', 'user_likes_jazz.md']);
    expect(await indexTargets(dir)).toEqual(await names(dir));
    // A memory of the same name with other words is still another memory, beside it.
    const edited = { ...again[2]!, body: 'Likes jazz, mostly Coltrane.' };
    expect((await writeImport(vault, target, [edited], guard.scan)).written).toEqual([`${DIR}/user_likes_jazz_2.md`]);
  });
});

// The `strata` process from source, bundled once: a real kill -9 in the middle of an import.
const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'cli', 'strata-child.ts');
let child: Awaited<ReturnType<typeof compileChild>>;
beforeAll(async () => {
  child = await compileChild(entry);
});
afterAll(async () => {
  await child?.remove();
});

function strata(args: string[], onStart?: (pid: number) => void): Promise<{ code: number | null; signal: string | null; stdout: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [child.file, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    onStart?.(proc.pid!);
    let stdout = '';
    proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    proc.on('close', (code, signal) => resolve({ code, signal, stdout }));
  });
}

describe('strata memory import killed midway', () => {
  it('run again, completes the import with no _2 copy and one MEMORY.md line a memory', async () => {
    const project = await tempDir('strata-import-project-');
    const vault = await tempDir('strata-import-vault-');
    const notes = Array.from({ length: 200 }, (_, i) => ({ name: `note ${i}.md`, data: Buffer.from(`# Note ${i} to keep\n\nThe ${i}th thing worth keeping.\n`) }));
    const zip = path.join(project, 'notes.zip');
    await fs.writeFile(zip, writeZip(notes, new Date(NOW)));
    const dir = path.join(vault, 'projects', slug(project), 'memory');
    const args = ['memory', 'import', '--project', project, '--vault', vault, '--json', zip];

    let pid = 0;
    const killed = strata(args, (p) => (pid = p));
    // kill -9 once a few files are there: no exit handler, no pending write finished.
    for (;;) {
      const some = await names(dir).catch(() => []);
      if (some.length >= 5) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    process.kill(pid, 'SIGKILL');
    expect((await killed).signal).toBe('SIGKILL');
    const before = await names(dir);
    expect(before.length).toBeLessThan(notes.length);

    const rerun = await strata(args);
    expect(rerun.code).toBe(0);
    const report = JSON.parse(rerun.stdout) as { written: string[]; alreadyImported: string[] };
    expect(report.alreadyImported).toHaveLength(before.length);
    expect(report.written).toHaveLength(notes.length - before.length);
    const after = await names(dir);
    expect(after).toHaveLength(notes.length);
    expect(after.filter((n) => /_\d+\.md$/.test(n))).toEqual([]);
    expect(await indexTargets(dir)).toEqual(after);
  }, 60_000);
});
