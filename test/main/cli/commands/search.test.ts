import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../../main/cli/index.js';
import type { CliIo } from '../../../../main/cli/cli-io.js';
import { slug } from '../../../../main/core/paths/slug.js';
import { tempDir } from '../../../support/temp-dir.js';

function captureIo(env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const errors: string[] = [];
  const io: CliIo = { stdout: (l) => out.push(l), stderr: (l) => errors.push(l), env, stopped: new Promise(() => undefined) };
  return { io, out, errors };
}

/** A repository with the app opened in a subfolder: memory keyed by the git root, transcripts by the folder. */
async function setup() {
  const repo = await tempDir('strata-repo-');
  const opened = path.join(repo, 'app');
  await fs.mkdir(path.join(repo, '.git'), { recursive: true });
  await fs.mkdir(opened);
  const vault = await tempDir('strata-vault-');
  const mem = path.join(vault, 'projects', slug(repo), 'memory');
  const sessions = path.join(vault, 'projects', slug(opened));
  await fs.mkdir(mem, { recursive: true });
  await fs.mkdir(sessions, { recursive: true });
  await fs.mkdir(path.join(vault, 'projects', 'elsewhere', 'memory'), { recursive: true });
  await fs.writeFile(path.join(mem, 'db.md'), '---\nname: Database\ndescription: db choice\ntype: project\n---\n\nWe use PostgreSQL.\n');
  await fs.writeFile(path.join(sessions, 's1.jsonl'), `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'is PostgreSQL up?' } })}\n`);
  await fs.writeFile(path.join(vault, 'projects', 'elsewhere', 'memory', 'x.md'), '---\nname: X\ndescription: x\ntype: user\n---\nPostgreSQL elsewhere\n');
  return { repo, opened, vault, mem };
}

describe('strata search', () => {
  it("prints the project's hits as one JSON document, memory by git root and transcripts by folder", async () => {
    const { opened, vault } = await setup();
    const { io, out, errors } = captureIo();
    const code = await runCli(['search', '--project', opened, '--vault', vault, '--json', 'postgresql'], io);
    expect({ code, errors }).toEqual({ code: 0, errors: [] });
    const { results } = JSON.parse(out.join('\n')) as { results: Record<string, unknown>[] };
    expect(results.map((r) => r.scope).sort()).toEqual(['project-memory', 'transcript']);
    const db = results.find((r) => r.scope === 'project-memory')!;
    expect(Object.keys(db).sort()).toEqual(['line', 'path', 'scope', 'score', 'snippet', 'title', 'type']);
    expect(db).toMatchObject({ title: 'Database', type: 'project', line: 7, snippet: 'We use PostgreSQL.' });
    expect(results.find((r) => r.scope === 'transcript')).toMatchObject({ line: 1 });
  });

  it("searches the project's own CLAUDE.md files with it, not another folder's", async () => {
    const { opened, repo, vault } = await setup();
    await fs.mkdir(path.join(opened, '.claude', 'rules'), { recursive: true });
    await fs.writeFile(path.join(opened, '.claude', 'rules', 'db.md'), 'Migrations run against PostgreSQL 16.\n');
    await fs.writeFile(path.join(repo, 'NOTES.md'), 'PostgreSQL notes that are no instructions\n');
    const { io, out, errors } = captureIo();
    expect(await runCli(['search', '--project', opened, '--vault', vault, '--json', '--scope', 'instructions', 'postgresql'], io)).toBe(0);
    expect(errors).toEqual([]);
    const { results } = JSON.parse(out.join('\n')) as { results: Record<string, unknown>[] };
    expect(results).toEqual([expect.objectContaining({ path: `@projects/${slug(opened)}/.claude/rules/db.md`, scope: 'instructions', line: 1 })]);
  });

  it('prints human lines without --json and says when nothing matched', async () => {
    const { opened, vault } = await setup();
    const first = captureIo();
    expect(await runCli(['search', '--project', opened, '--vault', vault, 'postgresql', '--scope', 'project-memory'], first.io)).toBe(0);
    expect(first.out.join('\n')).toMatch(/memory\/db\.md:7 {2}Database \[project-memory, project\]\n {4}We use PostgreSQL\./);
    const second = captureIo();
    expect(await runCli(['search', '--project', opened, '--vault', vault, 'nothingmatcheshere'], second.io)).toBe(0);
    expect(second.out).toEqual(['no results for "nothingmatcheshere"']);
  });

  it('exits 2 with one stderr line on bad usage', async () => {
    const { opened, vault } = await setup();
    for (const argv of [
      ['search', '--vault', vault, 'q'],
      ['search', '--project', opened, '--vault', vault],
      ['search', '--project', path.join(opened, 'nope'), '--vault', vault, 'q'],
      ['search', '--project', opened, '--vault', vault, '--scope', 'bogus', 'q'],
    ]) {
      const { io, errors } = captureIo();
      expect(await runCli(argv, io)).toBe(2);
      expect(errors).toHaveLength(1);
    }
  });
});
