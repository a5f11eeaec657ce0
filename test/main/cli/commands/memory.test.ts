import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../../main/cli/index.js';
import type { CliIo } from '../../../../main/cli/cli-io.js';
import { slug } from '../../../../main/core/paths/slug.js';
import { githubToken, SeededRandom } from '../../../fixtures/secrets/seeded-random.js';
import { tempDir } from '../../../support/temp-dir.js';

function captureIo() {
  const out: string[] = [];
  const errors: string[] = [];
  const io: CliIo = { stdout: (l) => out.push(l), stderr: (l) => errors.push(l), env: {}, stopped: new Promise(() => undefined) };
  return { io, out, errors };
}

async function setup() {
  const project = await tempDir('strata-project-');
  const vault = await tempDir('strata-vault-');
  return { project, vault, mem: path.join(vault, 'projects', slug(project), 'memory') };
}

const pasted = `Here's what I remember about you:
- [2025-01-20] Is building a budgeting app called Penny
- [2024-08-03] Prefers concise answers
Let me know if you want changes.`;

describe('strata memory', () => {
  it('imports a pasted answer into the project memory, with MEMORY.md lines, then exports it as a zip that imports back the same', async () => {
    const { project, vault, mem } = await setup();
    const answer = path.join(project, 'answer.txt');
    await fs.writeFile(answer, pasted);

    const dry = captureIo();
    expect(await runCli(['memory', 'import', '--project', project, '--vault', vault, '--from', 'chatgpt', '--dry-run', answer], dry.io)).toBe(0);
    expect(dry.out[0]).toBe('would write project_building_a_budgeting_app_called_penny.md  [project] Building a budgeting app called Penny');
    await expect(fs.stat(mem)).rejects.toThrow();

    const run = captureIo();
    expect(await runCli(['memory', 'import', '--project', project, '--vault', vault, '--from', 'chatgpt', '--json', answer], run.io)).toBe(0);
    const { written } = JSON.parse(run.out.join('')) as { written: string[] };
    expect(written).toHaveLength(2);
    const penny = await fs.readFile(path.join(mem, 'project_building_a_budgeting_app_called_penny.md'), 'utf8');
    expect(penny).toContain('Imported from ChatGPT on ');
    expect(penny).toContain('(saved there on 2025-01-20)');
    expect(await fs.readFile(path.join(mem, 'MEMORY.md'), 'utf8')).toContain('(project_building_a_budgeting_app_called_penny.md)');

    const zip = path.join(project, 'out.zip');
    const exp = captureIo();
    expect(await runCli(['memory', 'export', '--project', project, '--vault', vault, '--out', zip], exp.io)).toBe(0);
    expect(exp.out).toEqual([`exported 3 files to ${zip}`]);

    const other = await setup();
    const back = captureIo();
    expect(await runCli(['memory', 'import', '--project', other.project, '--vault', other.vault, zip], back.io)).toBe(0);
    for (const name of await fs.readdir(mem)) {
      if (name === 'MEMORY.md') continue;
      expect(await fs.readFile(path.join(other.mem, name), 'utf8')).toBe(await fs.readFile(path.join(mem, name), 'utf8'));
    }

    const md = captureIo();
    expect(await runCli(['memory', 'export', '--all', '--vault', vault, '--format', 'markdown'], md.io)).toBe(0);
    expect(md.out.join('\n')).toContain('- **Prefers concise answers**: Prefers concise answers.');
  });

  it('previews one memory per dated line of an answer in the format Strata asks for', async () => {
    const { project, vault } = await setup();
    const answer = path.join(project, 'answer.txt');
    await fs.writeFile(answer, '[2024-05-12] - Works as a nurse in Porto\n[2024-08-03] - Is preparing for a marathon\n[2024-09-01] - Has a dog named Biscuit\n');
    const dry = captureIo();
    expect(await runCli(['memory', 'import', '--project', project, '--vault', vault, '--from', 'chatgpt', '--dry-run', '--json', answer], dry.io)).toBe(0);
    const { items } = JSON.parse(dry.out.join('')) as { items: { name: string; body: string }[] };
    expect(items.map((i) => [i.name, /saved there on ([\d-]+)/.exec(i.body)?.[1]])).toEqual([
      ['Works as a nurse in Porto', '2024-05-12'],
      ['Preparing for a marathon', '2024-08-03'],
      ['Has a dog named Biscuit', '2024-09-01'],
    ]);
  });

  it('says what is wrong with bad input and writes nothing', async () => {
    const { project, vault, mem } = await setup();
    const cases: [string[], RegExp][] = [
      [['memory', 'import', '--vault', vault, 'x.txt'], /--project DIR is required/],
      [['memory', 'import', '--project', project, '--vault', vault, '--from', 'gemini', 'x.txt'], /--from must be/],
      [['memory', 'import', '--project', project, '--vault', vault, path.join(project, 'missing.txt')], /no such file/],
      [['memory', 'export', '--vault', vault, '--out', 'x.zip'], /give --project DIR or --all/],
      [['memory', 'export', '--all', '--vault', vault], /--out FILE is required for a zip/],
      [['memory', 'frobnicate'], /use `strata memory import/],
    ];
    for (const [argv, message] of cases) {
      const io = captureIo();
      expect(await runCli(argv, io.io), argv.join(' ')).toBe(2);
      expect(io.errors.join('\n')).toMatch(message);
    }
    const empty = path.join(project, 'empty.txt');
    await fs.writeFile(empty, 'Let me know if you want anything else.');
    const io = captureIo();
    expect(await runCli(['memory', 'import', '--project', project, '--vault', vault, empty], io.io)).toBe(2);
    expect(io.errors).toEqual(['strata memory import: no memories found in the input']);
    await expect(fs.stat(mem)).rejects.toThrow();
  });

  it('holds back an item with a secret, says what and where (never the value), and writes the rest', async () => {
    const { project, vault, mem } = await setup();
    const token = githubToken(new SeededRandom(5), 'ghp');
    const answer = path.join(project, 'answer.txt');
    await fs.writeFile(answer, `- My github token is ${token}\n- Prefers concise answers\n`);

    const dry = captureIo();
    expect(await runCli(['memory', 'import', '--project', project, '--vault', vault, '--dry-run', answer], dry.io)).toBe(1);
    expect(dry.out[0]).toBe('would hold back user_my_github_token_is_secret_removed.md: GitHub personal access token on line 1 of its text');

    const run = captureIo();
    expect(await runCli(['memory', 'import', '--project', project, '--vault', vault, answer], run.io)).toBe(1);
    expect(run.out).toEqual([`wrote projects/${slug(project)}/memory/feedback_prefers_concise_answers.md`]);
    expect(run.errors[0]).toBe('strata memory import: held back user_my_github_token_is_secret_removed.md: GitHub personal access token on line 1 of its text');
    expect(run.errors[1]).toMatch(/^strata memory import: 1 not imported for a possible secret: leave the secret out/);
    expect([...dry.out, ...run.out, ...run.errors].join('\n')).not.toContain(token);
    expect((await fs.readdir(mem)).sort()).toEqual(['MEMORY.md', 'feedback_prefers_concise_answers.md']);
  });
});
