import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commandEntries } from '../../../main/cli/command-registry.js';
import { runCli } from '../../../main/cli/index.js';
import type { CliIo } from '../../../main/cli/cli-io.js';

describe('the command registry', () => {
  it.each(commandEntries.map((e) => [e.name, e] as const))('%s: loads the command of that name with the summary --help lists', async (name, entry) => {
    const command = await entry.load();
    expect(command.name).toBe(name);
    expect(command.summary).toBe(entry.summary);
  });

  it('lists every command in strata --help', async () => {
    const out: string[] = [];
    const io: CliIo = { stdout: (l) => out.push(l), stderr: () => undefined, env: {}, stopped: new Promise(() => undefined) };
    expect(await runCli(['--help'], io)).toBe(0);
    for (const entry of commandEntries) expect(out.join('\n')).toMatch(new RegExp(`^  ${entry.name} +${entry.summary.replace(/[()]/g, '\\$&')}$`, 'm'));
  });

  it('prints the version from package.json for --version', async () => {
    const out: string[] = [];
    const io: CliIo = { stdout: (l) => out.push(l), stderr: () => undefined, env: {}, stopped: new Promise(() => undefined) };
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(await runCli(['--version'], io)).toBe(0);
    expect(out).toEqual([`strata ${version}`]);
  });
});
