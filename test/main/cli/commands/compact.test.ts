import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../../../main/cli/cli-io.js';
import { runCli } from '../../../../main/cli/index.js';
import { DEFAULT_NOTES_TEMPLATE } from '../../../../main/core/session-memory/index.js';
import { TranscriptBuilder, textOfTokens } from '../../../fixtures/transcripts/transcript-builder.js';
import { tempDir } from '../../../support/temp-dir.js';

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/transcripts/claude-code-small.jsonl');
const notes = DEFAULT_NOTES_TEMPLATE.replace('# Current State\n', '# Current State\nFixing the lexer loop.\n');

function fakeIo(env: NodeJS.ProcessEnv = {}): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (l) => out.push(l), stderr: (l) => err.push(l), env, stopped: new Promise(() => undefined) };
}

async function files(notesText: string | null = notes, more?: (t: TranscriptBuilder) => void) {
  const dir = await tempDir();
  const vault = path.join(dir, 'vault');
  await fs.mkdir(vault);
  const t = new TranscriptBuilder();
  for (let i = 0; i < 30; i++) {
    t.user(`q${i} ${textOfTokens(1_000)}`);
    t.assistant(textOfTokens(2_000), i === 29 ? { usage: { input_tokens: 90_000 } } : {});
  }
  more?.(t);
  const transcript = path.join(dir, 'session-1.jsonl');
  await fs.writeFile(transcript, t.jsonl());
  const notesPath = path.join(dir, 'summary.md');
  if (notesText !== null) await fs.writeFile(notesPath, notesText);
  return { dir, vault, t, transcript, notesPath, args: ['--transcript', transcript, '--session-memory', notesPath, '--vault', vault, '--json'] };
}

async function run(args: string[], io = fakeIo()) {
  const code = await runCli(['compact', ...args], io);
  return { code, io, json: args.includes('--json') && io.out.length ? JSON.parse(io.out[0]!) : null };
}

describe('strata compact', () => {
  it('prints the kept uuids in file order and the token figures, and changes no file', async () => {
    const f = await files();
    const before = await fs.readFile(f.transcript);
    const { code, json } = await run([...f.args, '--last-summarized', 'u50']);
    expect(code).toBe(0);
    expect(Object.keys(json)).toEqual(['keptUuids', 'tokensBefore', 'tokensAfter', 'fallback']);
    expect(json.keptUuids).toEqual(f.t.records.slice(50).map((r) => r.uuid));
    expect(json.tokensBefore).toBe(90_000);
    expect(json.tokensAfter).toBeGreaterThan(10_000);
    expect(json.fallback).toBeNull();
    expect(await fs.readFile(f.transcript)).toEqual(before);
    expect(await fs.readdir(f.dir)).toEqual(['session-1.jsonl', 'summary.md', 'vault']);
  });

  it('keeps only the conversation as resumed from a rewound transcript, not its abandoned branch', async () => {
    const f = await files(notes, (t) => {
      t.user('OLD BRANCH question');
      t.assistant('OLD BRANCH answer');
      // The user rewound to u60 and asked again: the new question's parent is u60, not the old answer.
      t.user('the edited question');
      t.records.at(-1)!.parentUuid = 'u60';
      t.assistant('the new answer', { usage: { input_tokens: 90_000 } });
    });
    const { code, json } = await run([...f.args, '--last-summarized', 'u50']);
    expect(code).toBe(0);
    expect(json.fallback).toBeNull();
    expect(json.keptUuids).toEqual([...f.t.records.slice(50, 60).map((r) => r.uuid), 'u63', 'u64']);
  });

  it('reports each fallback with nothing kept and exit 0', async () => {
    const missing = await files(null);
    expect((await run(missing.args)).json).toMatchObject({ keptUuids: [], fallback: 'no-notes', tokensBefore: 90_000 });
    const template = await files(DEFAULT_NOTES_TEMPLATE);
    expect((await run(template.args)).json).toMatchObject({ keptUuids: [], fallback: 'template' });
    const f = await files();
    const lost = await run([...f.args, '--last-summarized', 'not-there']);
    expect(lost.code).toBe(0);
    expect(lost.json).toMatchObject({ keptUuids: [], fallback: 'boundary-not-found' });
    expect((await run([...f.args, '--last-summarized', 'u2', '--threshold', '50000'])).json).toMatchObject({ fallback: 'over-threshold' });
    expect((await run([...f.args, '--last-summarized', 'u2'])).json).toMatchObject({ fallback: null });
  });

  it('leaves the transcript and the notes byte-identical after each bad input, with its stated result', async () => {
    const headerless = notes.replace('# Current State\n', '').replace('# Worklog\n', '');
    const line = `${'The parser keeps a stack of open blocks. '.repeat(2)}\n`;
    const huge = DEFAULT_NOTES_TEMPLATE.replace(/^(# .*\n_.*_\n)/gm, (h: string) => `${h}${line.repeat(6_500)}`);
    expect(huge.length).toBeGreaterThan(5_000_000);
    const cases: { name: string; notes: string | null; args?: string[]; transcript?: (t: TranscriptBuilder) => void; expected: Record<string, unknown> }[] = [
      { name: 'notes deleted', notes: null, expected: { fallback: 'no-notes', keptUuids: [] } },
      { name: 'notes emptied', notes: '', expected: { fallback: 'template', keptUuids: [] } },
      { name: 'notes emptied to blank lines', notes: '\n\n  \n', expected: { fallback: 'template', keptUuids: [] } },
      { name: 'still the template', notes: DEFAULT_NOTES_TEMPLATE, expected: { fallback: 'template', keptUuids: [] } },
      // Each of the ten sections is cut at 8,000 characters in the summary: about 27,000 tokens of notes at most.
      { name: '5 MB of notes', notes: huge, expected: { fallback: null } },
      { name: '5 MB of notes, auto threshold', notes: huge, args: ['--threshold', '167000'], expected: { fallback: null } },
      { name: 'headers removed by hand', notes: headerless, expected: { fallback: null } },
      {
        name: 'a cursor on a message compacted away',
        notes,
        args: ['--last-summarized', 'u10'],
        transcript: (t) => {
          t.boundary();
          t.user('summary of the earlier part', { isCompactSummary: true });
          t.assistant('continuing');
        },
        expected: { fallback: 'boundary-not-found', keptUuids: [] },
      },
      {
        name: 'a record the compaction cannot read',
        notes,
        transcript: (t) => {
          t.user('one more');
          (t.records.at(-1) as { message: { content: unknown } }).message.content = 42;
        },
        expected: { fallback: 'error', keptUuids: [] },
      },
    ];
    for (const c of cases) {
      const f = await files(c.notes, c.transcript);
      const transcriptBefore = await fs.readFile(f.transcript);
      const notesBefore = c.notes === null ? null : await fs.readFile(f.notesPath);
      const { code, json } = await run([...f.args, ...(c.args ?? [])]);
      expect(code, c.name).toBe(0);
      expect(json, c.name).toMatchObject(c.expected);
      if (c.name.startsWith('5 MB')) expect(json.tokensAfter, c.name).toBeLessThan(50_000);
      expect((await fs.readFile(f.transcript)).equals(transcriptBefore), c.name).toBe(true);
      if (notesBefore === null) await expect(fs.stat(f.notesPath)).rejects.toThrow();
      else expect((await fs.readFile(f.notesPath)).equals(notesBefore), c.name).toBe(true);
      expect((await fs.readdir(f.dir)).sort(), c.name).toEqual(c.notes === null ? ['session-1.jsonl', 'vault'] : ['session-1.jsonl', 'summary.md', 'vault']);
      expect(await fs.readdir(f.vault), c.name).toEqual([]);
    }
  });

  it('counts the vault’s custom template for the "still the template" test', async () => {
    const f = await files('# Mine\n_only mine_\n');
    expect((await run(f.args)).json.fallback).toBeNull();
    await fs.mkdir(path.join(f.vault, 'session-memory', 'config'), { recursive: true });
    await fs.writeFile(path.join(f.vault, 'session-memory', 'config', 'template.md'), '# Mine\n_only mine_');
    expect((await run(f.args)).json.fallback).toBe('template');
  });

  it('uses the vault’s memory settings for the keep floors', async () => {
    const f = await files();
    await fs.mkdir(path.join(f.vault, '.strata'));
    await fs.writeFile(path.join(f.vault, '.strata', 'settings.json'), JSON.stringify({ memory: { compaction: { keepMinTokens: 1, keepMinTextMessages: 1 } } }));
    expect((await run(f.args)).json.keptUuids).toEqual(['u60']);
  });

  it('reads a Claude Code transcript, skipping sidechains, foreign records and a torn last line', async () => {
    const f = await files();
    const { code, json } = await run(['--transcript', fixture, '--session-memory', f.notesPath, '--vault', f.vault, '--json']);
    expect(code).toBe(0);
    expect(json.keptUuids).toEqual([1, 2, 3, 4, 5].map((n) => `0b5e6a2c-1111-4a4a-8a8a-00000000000${n}`));
    expect(json.tokensBefore).toBe(8 + 120 + 4000 + 30);
  });

  it('prints one human line without --json', async () => {
    const f = await files();
    const { io, code } = await run(f.args.filter((a) => a !== '--json'));
    expect(code).toBe(0);
    expect(io.out).toEqual([expect.stringMatching(/^kept \d+ records verbatim; 90000 → \d+ tokens$/)]);
  });

  it('exits 2 with one line on bad usage or an unreadable transcript', async () => {
    const f = await files();
    for (const args of [
      ['--session-memory', f.notesPath],
      ['--transcript', f.transcript],
      ['--transcript', path.join(f.dir, 'none.jsonl'), '--session-memory', f.notesPath],
      [...f.args, '--threshold', '-3'],
      [...f.args, '--bogus'],
    ]) {
      const { code, io } = await run(args);
      expect(code).toBe(2);
      expect(io.err).toHaveLength(1);
    }
  });
});
