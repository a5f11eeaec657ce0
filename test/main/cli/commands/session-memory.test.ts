import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../../../main/cli/cli-io.js';
import { makeSessionMemoryCommand, type ForkRunnerRequest } from '../../../../main/cli/commands/session-memory.js';
import { runCli } from '../../../../main/cli/index.js';
import { notesPathFor } from '../../../../main/core/session-memory/index.js';
import type { ForkRunner } from '../../../../main/core/session-memory/index.js';
import { TranscriptBuilder } from '../../../fixtures/transcripts/transcript-builder.js';
import { tempDir } from '../../../support/temp-dir.js';

function fakeIo(): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (l) => out.push(l), stderr: (l) => err.push(l), env: {}, stopped: new Promise(() => undefined) };
}

async function setup() {
  const dir = await tempDir();
  const vault = path.join(dir, 'vault');
  const project = path.join(dir, 'project');
  await fs.mkdir(project);
  const t = new TranscriptBuilder('sess-42', project);
  t.user('rename the module');
  t.assistant('renamed', { usage: { input_tokens: 300 } });
  const transcript = path.join(dir, 'sess-42.jsonl');
  await fs.writeFile(transcript, t.jsonl());
  return { vault, project, transcript, args: ['--transcript', transcript, '--project', project, '--vault', vault] };
}

const usage = { input_tokens: 50, output_tokens: 30, cache_read_input_tokens: 950, cache_creation_input_tokens: 0 };

describe('strata session-memory', () => {
  it('runs one update through the fork and prints {path, updated, usage, cacheHitRatio}', async () => {
    const s = await setup();
    const requests: ForkRunnerRequest[] = [];
    const fork: ForkRunner = async ({ canUseTool }) => {
      const file = notesPathFor(s.vault, s.project, 'sess-42');
      if ((await canUseTool('Edit', { file_path: file })).allow) {
        await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace('# Worklog\n', '# Worklog\n- renamed the module\n'));
      }
      return { usage, cacheHitRatio: 0.95 };
    };
    const command = makeSessionMemoryCommand(async (request) => {
      requests.push(request);
      return fork;
    });
    const io = fakeIo();
    expect(await command.run([...s.args, '--json'], io)).toBe(0);
    const json = JSON.parse(io.out[0]!);
    expect(json).toEqual({ path: notesPathFor(s.vault, s.project, 'sess-42'), updated: true, usage, cacheHitRatio: 0.95 });
    expect(Object.keys(json)).toEqual(['path', 'updated', 'usage', 'cacheHitRatio']);
    expect(requests[0]).toMatchObject({ sessionId: 'sess-42', projectDir: s.project, vaultRoot: s.vault });
    expect(await fs.readFile(json.path, 'utf8')).toContain('- renamed the module');
  });

  it('exits 2 without --project or with an empty transcript', async () => {
    const s = await setup();
    const io = fakeIo();
    expect(await runCli(['session-memory', '--transcript', s.transcript], io)).toBe(2);
    await fs.writeFile(s.transcript, '');
    expect(await runCli(['session-memory', ...s.args], io)).toBe(2);
    expect(io.err).toHaveLength(2);
  });
});
