import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError, type CliIo } from '../../../main/cli/cli-io.js';
import { commandEntries } from '../../../main/cli/command-registry.js';
import { runCli } from '../../../main/cli/index.js';
import { existingFile, existingFolder, parseOptions, required, resolveVault, vaultAndJson, wholeNumber } from '../../../main/cli/options.js';

function captured(env: NodeJS.ProcessEnv = {}): { io: CliIo; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (l) => out.push(l), stderr: (l) => err.push(l), env, stopped: new Promise(() => undefined) }, out, err };
}

/** Each usage line of `strata <cmd> --help` with the words that select it (`memory import`, `server token revoke`). */
const usageLines = await Promise.all(
  commandEntries.map(async (entry) => ({ name: entry.name, usage: (await entry.load()).usage })),
).then((commands) =>
  commands.flatMap(({ name, usage }) =>
    usage.split('\n').map((line) => {
      const words = line.trim().replace(/^strata \S+ ?/, '').split(' ');
      const selector: string[] = [];
      for (const w of words) {
        if (!/^[a-z][a-z-]*$/.test(w)) break;
        selector.push(w);
      }
      return { name, selector, flags: [...new Set(line.match(/--[a-z][a-z-]*/g) ?? [])] };
    }),
  ),
);

describe('the CLI option parser', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'strata-options-'));
    await fs.writeFile(path.join(dir, 'a.jsonl'), '');
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it('parses the shared flags and positionals, and refuses unknown flags and missing values', () => {
    const parsed = parseOptions(['--vault', 'v', 'hello', '--json', 'world'], { project: { type: 'string' }, ...vaultAndJson }, { positionals: true });
    expect(parsed.values).toEqual({ vault: 'v', json: true });
    expect(parsed.positionals).toEqual(['hello', 'world']);
    expect(parseOptions([], vaultAndJson).values.json).toBe(false);
    expect(() => parseOptions(['--bogus'], vaultAndJson)).toThrow(expect.objectContaining({ code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' }));
    expect(() => parseOptions(['--vault'], vaultAndJson)).toThrow(expect.objectContaining({ code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' }));
    expect(() => parseOptions(['stray'], vaultAndJson)).toThrow(expect.objectContaining({ code: 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' }));
  });

  it('says which flag is missing, and which folder or file is not there', async () => {
    expect(required('x', '--project DIR')).toBe('x');
    expect(() => required(undefined, '--project DIR')).toThrow(new UsageError('--project DIR is required'));
    expect(() => required('', '--out FILE')).toThrow(UsageError);
    expect(await existingFolder(dir, '--project')).toBe(path.resolve(dir));
    await expect(existingFolder(path.join(dir, 'a.jsonl'), '--project')).rejects.toThrow(`--project: no such folder: ${path.join(dir, 'a.jsonl')}`);
    expect(await existingFile(path.join(dir, 'a.jsonl'), '--transcript')).toBe(path.join(dir, 'a.jsonl'));
    await expect(existingFile(dir, '--transcript')).rejects.toThrow(UsageError);
    await expect(existingFile(path.join(dir, 'none'), '--transcript')).rejects.toThrow('--transcript: no such file');
  });

  it('takes whole numbers within bounds only, naming the flag and the range', () => {
    expect(wholeNumber(undefined, '--limit', 1, 1000)).toBeUndefined();
    expect(wholeNumber('20', '--limit', 1, 1000)).toBe(20);
    expect(wholeNumber(' 0 ', '--port', 0, 65535)).toBe(0);
    for (const bad of ['0', '1001', '-3', '2.5', '1e3', 'ten', '0x10']) {
      expect(() => wholeNumber(bad, '--limit', 1, 1000), bad).toThrow(`--limit must be a whole number from 1 to 1000, not ${JSON.stringify(bad)}`);
    }
    expect(() => wholeNumber('99999999999999999999', '--max-entries', 1)).toThrow('--max-entries must be a whole number from 1, not');
  });

  it('finds the vault from --vault, else from the app data folder', async () => {
    expect(await resolveVault('rel/vault', captured().io)).toBe(path.resolve('rel/vault'));
    const appData = path.join(dir, 'app-data');
    expect(await resolveVault(undefined, captured({ STRATA_APP_DATA: appData }).io)).toBe(appData);
    await fs.mkdir(appData, { recursive: true });
    await fs.writeFile(path.join(appData, 'vault-root.json'), JSON.stringify({ root: path.join(dir, 'chosen') }));
    expect(await resolveVault(undefined, captured({ STRATA_APP_DATA: appData }).io)).toBe(path.join(dir, 'chosen'));
  });

  it.each(commandEntries.map((e) => e.name))('strata %s refuses an unknown flag with exit 2 and one stderr line', async (name) => {
    const { io, err, out } = captured({ STRATA_APP_DATA: path.join(dir, 'app-data') });
    expect(await runCli([name, '--no-such-flag'], io)).toBe(2);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(new RegExp(`^strata ${name}: `));
    expect(out).toEqual([]);
  });

  it.each(usageLines.flatMap((u) => u.flags.map((flag) => [u.name, [...u.selector, flag].join(' '), u.selector, flag] as const)))(
    'strata %s --help is true: "%s" is a flag the command knows',
    async (name, _shown, selector, flag) => {
      const { io, err } = captured({ STRATA_APP_DATA: path.join(dir, 'app-data') });
      // The unknown flag after it stops the command at parsing, before it touches anything.
      expect(await runCli([name, ...selector, flag, '--zz-unknown'], io)).toBe(2);
      expect(err).toHaveLength(1);
      expect(err[0]).not.toContain(`Unknown option '${flag}'`);
    },
  );
});
