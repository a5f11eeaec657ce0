import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../../main/cli/index.js';
import type { CliIo } from '../../../../main/cli/cli-io.js';
import { tempDir } from '../../../support/temp-dir.js';

function captureIo(env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const errors: string[] = [];
  const io: CliIo = { stdout: (l) => out.push(l), stderr: (l) => errors.push(l), env, stopped: new Promise(() => undefined) };
  return { io, out, errors };
}

async function claudeHome() {
  const home = await tempDir('strata-home-');
  const p = path.join(home, '.claude', 'projects', '-home-u-proj');
  await fs.mkdir(path.join(p, 'memory'), { recursive: true });
  await fs.writeFile(path.join(p, 's1.jsonl'), '{"type":"user"}\n');
  await fs.writeFile(path.join(p, 'memory', 'MEMORY.md'), '- [A](a.md) — a\n');
  return home;
}

describe('strata import claude-code', () => {
  it('prints the counts as one JSON document with --json', async () => {
    const home = await claudeHome();
    const vault = await tempDir();
    const { io, out, errors } = captureIo();
    const code = await runCli(['import', 'claude-code', '--from', path.join(home, '.claude'), '--vault', vault, '--json'], io);
    expect({ code, errors }).toEqual({ code: 0, errors: [] });
    expect(JSON.parse(out.join('\n'))).toEqual({ projects: 1, transcripts: 1, memoryFiles: 1, skipped: 0 });
    expect(await fs.readFile(path.join(vault, 'projects', '-home-u-proj', 's1.jsonl'), 'utf8')).toBe('{"type":"user"}\n');
  });

  it('reads ~/.claude by default and the vault from the app data folder, printing a human line', async () => {
    const home = await claudeHome();
    const appData = await tempDir();
    const { io, out } = captureIo({ HOME: home, STRATA_APP_DATA: appData });
    expect(await runCli(['import', 'claude-code'], io)).toBe(0);
    expect(out[0]).toMatch(/^Imported 1 transcript\(s\) and 1 memory file\(s\).*0 skipped/);
    expect(await fs.readFile(path.join(appData, 'projects', '-home-u-proj', 'memory', 'MEMORY.md'), 'utf8')).toContain('[A]');
  });

  it('exits 2 with one stderr line for an unknown source or a folder without Claude Code data', async () => {
    const a = captureIo();
    expect(await runCli(['import', 'cursor'], a.io)).toBe(2);
    expect(a.errors).toHaveLength(1);
    const b = captureIo();
    expect(await runCli(['import', 'claude-code', '--from', await tempDir(), '--vault', await tempDir()], b.io)).toBe(2);
    expect(b.errors[0]).toMatch(/no projects folder/);
  });
});
