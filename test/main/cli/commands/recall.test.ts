import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../../main/cli/index.js';
import type { CliIo } from '../../../../main/cli/cli-io.js';
import { slug } from '../../../../main/core/paths/slug.js';
import { startFakeAnthropic, text, type FakeAnthropic } from '../../../fakes/anthropic-server/index.js';
import { tempDir } from '../../../support/temp-dir.js';

function captureIo(env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const errors: string[] = [];
  const io: CliIo = { stdout: (l) => out.push(l), stderr: (l) => errors.push(l), env, stopped: new Promise(() => undefined) };
  return { io, out, errors };
}

const memory = (name: string, description: string, body: string) => `---\nname: ${name}\ndescription: ${description}\ntype: project\n---\n\n${body}\n`;

async function setup() {
  const project = await tempDir('strata-recall-project-');
  const vault = await tempDir('strata-recall-vault-');
  const mem = path.join(vault, 'projects', slug(project), 'memory');
  await fs.mkdir(mem, { recursive: true });
  await fs.writeFile(path.join(mem, 'db.md'), memory('Database', 'We use PostgreSQL 16 for the orders service', 'PostgreSQL 16, managed by Priya.'));
  await fs.writeFile(path.join(mem, 'deploy.md'), memory('Deploy day', 'Deploys go out on Thursdays', 'Thursday deploys.'));
  await fs.writeFile(path.join(mem, 'MEMORY.md'), '- [Database](db.md) — PostgreSQL\n');
  return { project, vault, mem };
}

let fake: FakeAnthropic | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

describe('strata recall', () => {
  it('prints what a turn would attach offline, with the reasons as JSON', async () => {
    const { project, vault, mem } = await setup();
    const { io, out, errors } = captureIo();
    const code = await runCli(['recall', '--project', project, '--vault', vault, '--offline', '--json', '--explain', 'Which database does Priya run?'], io);
    expect({ code, errors }).toEqual({ code: 0, errors: [] });
    const result = JSON.parse(out.join('\n')) as { method: string; memories: { path: string; reason: string; why: { localRank: number; why: { names: string[] } } }[]; explain: { localBecause: string } };
    expect(result.method).toBe('local');
    expect(result.memories.map((m) => m.path)).toEqual([path.join(await fs.realpath(mem), 'db.md')]);
    expect(result.memories[0]!.why).toMatchObject({ localRank: 1, pickedBy: 'local', why: { names: ['Priya'] } });
    expect(result.memories[0]!.reason).toContain('ranked by its words · #1 in the local ranking · has “database”');
    expect(result.explain.localBecause).toBe('offline');
  });

  it('goes through the model when a key is set, and says what it listed', async () => {
    const { project, vault } = await setup();
    const prompts: string[] = [];
    fake = await startFakeAnthropic({
      respond: (request) => {
        prompts.push(JSON.stringify(request.messages));
        return text('{"selected_memories": ["deploy.md"]}');
      },
    });
    const { io, out, errors } = captureIo({ ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url });
    const code = await runCli(['recall', '--project', project, '--vault', vault, '--explain', 'when do we ship releases?'], io);
    expect({ code, errors }).toEqual({ code: 0, errors: [] });
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain('deploy.md');
    expect(out[0]).toMatch(/^1\. Deploy day {2}\(.*deploy\.md, saved today\)$/);
    expect(out[1]).toBe('   picked by the model · listed for being among the newest · holds none of the question’s words');
    expect(out.at(-1)).toMatch(/^· the model chose from 2 of 2 memories \(\d+ tokens of prompt\)$/);
  });

  it('says the local ranking answered for want of a key, and what nothing recalled means', async () => {
    const { project, vault } = await setup();
    const { io, out } = captureIo();
    expect(await runCli(['recall', '--project', project, '--vault', vault, '--explain', 'PostgreSQL version please'], io)).toBe(0);
    expect(out.at(-1)).toBe('· the local ranking answered (no API key), over 2 memories');
    const none = captureIo();
    expect(await runCli(['recall', '--project', project, '--vault', vault, 'lunch menu tomorrow'], none.io)).toBe(0);
    expect(none.out).toEqual(['no memory recalled for "lunch menu tomorrow"', '· nothing recalled: no memory holds the question’s words']);
  });

  it('answers for a project with no memory folder, and refuses an empty question', async () => {
    const project = await tempDir('strata-recall-bare-');
    const vault = await tempDir('strata-recall-vault-');
    const { io, out } = captureIo();
    expect(await runCli(['recall', '--project', project, '--vault', vault, '--offline', 'anything about the release'], io)).toBe(0);
    expect(out).toEqual(['no memory recalled for "anything about the release"', '· nothing recalled: the memory folder holds no memories']);
    const empty = captureIo();
    expect(await runCli(['recall', '--project', project, '--vault', vault], empty.io)).toBe(2);
    expect(empty.errors.join('\n')).toContain('give a QUESTION');
  });
});
