import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../../../../main/cli/cli-io.js';
import { runCli } from '../../../../main/cli/index.js';
import { memoryDirFor } from '../../../../main/core/auto-memory/memory-paths.js';
import { notesPathFor, SessionMemoryStateStore } from '../../../../main/core/session-memory/index.js';
import { apiErrors, startFakeAnthropic, text, toolCalls, type FakeAnthropic } from '../../../fakes/anthropic-server/index.js';
import { TranscriptBuilder } from '../../../fixtures/transcripts/transcript-builder.js';
import { tempDir } from '../../../support/temp-dir.js';

let fake: FakeAnthropic | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

/** The model commands through the real SDK: key and base URL from the environment, as docs/architecture.md says. */
async function setup() {
  fake = await startFakeAnthropic({ strict: true });
  const dir = await tempDir();
  const project = path.join(dir, 'project');
  const vault = path.join(dir, 'vault');
  const appData = path.join(dir, 'app-data');
  await fs.mkdir(project);
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (l) => out.push(l),
    stderr: (l) => err.push(l),
    env: { ANTHROPIC_API_KEY: 'sk-ant-cli', ANTHROPIC_BASE_URL: fake.url, STRATA_APP_DATA: appData },
    stopped: new Promise(() => undefined),
  };
  return { fake, project, vault, io, out, err };
}

describe('strata ask', () => {
  it('runs one turn and prints {sessionId, transcript, answer, usage}; the session can be continued', async () => {
    const s = await setup();
    s.fake.enqueue(text('Hello from the agent.'));
    const code = await runCli(['ask', '--project', s.project, '--vault', s.vault, '--no-memory', '--json', 'Say hello'], s.io);
    expect(s.err.filter((l) => !l.startsWith('warning'))).toEqual([]);
    expect(code).toBe(0);
    const result = JSON.parse(s.out.at(-1)!) as { sessionId: string; transcript: string; answer: string; usage: { output_tokens: number } };
    expect(Object.keys(result)).toEqual(['sessionId', 'transcript', 'answer', 'usage']);
    expect(result.answer).toBe('Hello from the agent.');
    expect(result.usage.output_tokens).toBeGreaterThan(0);
    expect(path.isAbsolute(result.transcript)).toBe(true);
    expect(await fs.readFile(result.transcript, 'utf8')).toContain('Say hello');
    expect(s.fake.requests[0]!.headers.authorization).toBe('Bearer sk-ant-cli');

    s.fake.enqueue(text('You said hello.'));
    expect(await runCli(['ask', '--project', s.project, '--vault', s.vault, '--no-memory', '--session', result.sessionId, 'What did I say?'], s.io)).toBe(0);
    expect(s.out.at(-1)).toBe('You said hello.');
    expect(JSON.stringify(s.fake.requests.at(-1)!.body.messages)).toContain('Hello from the agent.');
  });

  it('denies writes outside the memory folders unless --allow-writes', async () => {
    const s = await setup();
    const target = path.join(s.project, 'out.txt');
    s.fake.enqueue(toolCalls([{ name: 'Write', input: { file_path: target, content: 'x' } }]), text('I could not write it.'));
    expect(await runCli(['ask', '--project', s.project, '--vault', s.vault, '--no-memory', 'Write out.txt'], s.io)).toBe(0);
    await expect(fs.stat(target)).rejects.toThrow();
    expect(JSON.stringify(s.fake.requests.at(-1)!.body.messages)).toContain('declined');

    s.fake.enqueue(toolCalls([{ name: 'Write', input: { file_path: target, content: 'x' } }]), text('Written.'));
    expect(await runCli(['ask', '--project', s.project, '--vault', s.vault, '--no-memory', '--allow-writes', 'Write out.txt'], s.io)).toBe(0);
    expect(await fs.readFile(target, 'utf8')).toBe('x');
  });

  it('exits 1 with the API error on stderr, and 2 on bad usage', async () => {
    const s = await setup();
    s.fake.enqueue({ kind: 'error', status: 401, type: 'authentication_error', message: 'invalid x-api-key' });
    expect(await runCli(['ask', '--project', s.project, '--vault', s.vault, '--no-memory', 'Hi'], s.io)).toBe(1);
    expect(s.err.at(-1)).toMatch(/API key was refused/);
    expect(await runCli(['ask', '--project', s.project, '--vault', s.vault], s.io)).toBe(2);
    expect(await runCli(['ask', '--project', s.project, '--vault', s.vault, '--session', 'nope', 'Hi'], s.io)).toBe(2);
  });
});

describe('strata session-memory and strata extract through the model', () => {
  /** A transcript whose second question was edited: `oldBranch` is left behind, the new question hangs off the first answer (u2). */
  async function editedTranscript(project: string, sessionId: string, oldBranch: (t: TranscriptBuilder) => void, answer?: string) {
    const t = new TranscriptBuilder(sessionId, project);
    t.user('Please remember that I prefer tabs over spaces.');
    t.assistant('Noted: tabs.', { usage: { input_tokens: 300 } });
    oldBranch(t);
    t.user('What indentation do I use?');
    t.records.at(-1)!.parentUuid = 'u2';
    if (answer) t.assistant(answer, { usage: { input_tokens: 350 } });
    const file = path.join(path.dirname(project), `${sessionId}.jsonl`);
    await fs.writeFile(file, t.jsonl());
    return file;
  }

  async function transcriptFile(project: string, dir: string) {
    const t = new TranscriptBuilder('sess-cli', project);
    t.user('Please remember that I prefer tabs over spaces.');
    t.assistant('Noted: tabs.', { usage: { input_tokens: 300 } });
    const file = path.join(dir, 'sess-cli.jsonl');
    await fs.writeFile(file, t.jsonl());
    return file;
  }

  it('session-memory edits the notes through the forked agent', async () => {
    const s = await setup();
    const transcript = await transcriptFile(s.project, path.dirname(s.project));
    const notes = notesPathFor(s.vault, s.project, 'sess-cli');
    s.fake.enqueue(
      toolCalls([{ name: 'Edit', input: { file_path: notes, old_string: '# Worklog\n', new_string: '# Worklog\n- the user prefers tabs\n' } }]),
      text('Updated.'),
    );
    const code = await runCli(['session-memory', '--transcript', transcript, '--project', s.project, '--vault', s.vault, '--json'], s.io);
    // Only reading the key, the one-shot fork has nothing to warn about when there is no keychain.
    expect(s.err).toEqual([]);
    expect(code).toBe(0);
    const result = JSON.parse(s.out.at(-1)!) as { path: string; updated: boolean };
    expect(result).toMatchObject({ path: notes, updated: true });
    expect(await fs.readFile(notes, 'utf8')).toContain('- the user prefers tabs');
    // The fork sent the parent's exact prefix (same tools) and its own instruction after it.
    expect(s.fake.requests[0]!.body.tools!.map((t) => t.name)).toEqual(['Read', 'Write', 'Edit', 'Glob', 'Grep', 'Delete']);
  });

  it('session-memory over a session compacted by Claude Code sends its summary, not only the turns after /compact', async () => {
    const s = await setup();
    const t = new TranscriptBuilder('sess-compacted', s.project);
    t.user('The launch moved to Friday.');
    t.assistant('Noted.', { usage: { input_tokens: 300 } });
    t.boundary();
    // Claude Code flags its summary record transcript-only, yet sends it to the model.
    t.user('Summary: the launch is on Friday; the user owns the checklist.', { isCompactSummary: true, isVisibleInTranscriptOnly: true });
    t.user('Add the venue to the checklist.');
    t.assistant('Added.', { usage: { input_tokens: 400 } });
    const transcript = path.join(path.dirname(s.project), 'sess-compacted.jsonl');
    await fs.writeFile(transcript, t.jsonl());
    s.fake.enqueue(text('Nothing to change.'));
    expect(await runCli(['session-memory', '--transcript', transcript, '--project', s.project, '--vault', s.vault, '--json'], s.io)).toBe(0);
    const sent = JSON.stringify(s.fake.requests[0]!.body.messages);
    expect(sent).toContain('the user owns the checklist');
    expect(sent).toContain('Add the venue');
    expect(sent).not.toContain('The launch moved to Friday.');
  });

  it('session-memory exits 1 and leaves the cursors where they were when the API answers 500 to the notes fork', async () => {
    const s = await setup();
    const transcript = await transcriptFile(s.project, path.dirname(s.project));
    s.fake.enqueue(apiErrors.serverError());
    const code = await runCli(['session-memory', '--transcript', transcript, '--project', s.project, '--vault', s.vault, '--json'], s.io);
    expect(code).toBe(1);
    expect(s.err.at(-1)).toMatch(/The API failed \(500\)/);
    expect(s.out).toEqual([]);
    const state = await new SessionMemoryStateStore(s.vault).read('sess-cli');
    expect(state).toMatchObject({ tokensAtLastUpdate: 0, lastSummarizedMessageId: null, updateStartedAt: null });
  });

  it('session-memory sets the cursors from the conversation as resumed, not from an abandoned branch of an edited transcript', async () => {
    const s = await setup();
    const transcript = await editedTranscript(s.project, 'sess-branch', (t) => {
      t.user('OLD BRANCH: read the whole repository');
      t.assistant([t.toolUse('Read', { file_path: 'huge.txt' })], { usage: { input_tokens: 150_000 } });
    });
    s.fake.enqueue(text('Nothing new.'));
    expect(await runCli(['session-memory', '--transcript', transcript, '--project', s.project, '--vault', s.vault, '--json'], s.io)).toBe(0);
    const state = await new SessionMemoryStateStore(s.vault).read('sess-branch');
    expect(state.lastSummarizedMessageId).toBe('u5');
    expect(state.tokensAtLastUpdate).toBeLessThan(1_000);
    expect(JSON.stringify(s.fake.requests[0]!.body.messages)).not.toContain('OLD BRANCH');
  });

  it('extract writes a memory through the forked agent, inside the memory folder only', async () => {
    const s = await setup();
    const transcript = await transcriptFile(s.project, path.dirname(s.project));
    const memoryDir = await memoryDirFor(s.vault, s.project);
    const file = path.join(memoryDir, 'feedback_tabs.md');
    s.fake.enqueue(
      toolCalls([
        { name: 'Write', input: { file_path: file, content: '---\nname: Tabs\ndescription: Indent with tabs\ntype: feedback\n---\nUse tabs.\n' } },
        { name: 'Write', input: { file_path: path.join(s.project, 'escape.md'), content: 'no' } },
      ]),
      text('Saved.'),
    );
    const code = await runCli(['extract', '--transcript', transcript, '--project', s.project, '--vault', s.vault, '--json'], s.io);
    // Only reading the key, the one-shot fork has nothing to warn about when there is no keychain.
    expect(s.err).toEqual([]);
    expect(code).toBe(0);
    const result = JSON.parse(s.out.at(-1)!) as { written: string[]; denied: { path: string }[] };
    expect(result.written).toEqual([path.join(await fs.realpath(memoryDir), 'feedback_tabs.md')]);
    expect(result.denied.map((d) => d.path)).toEqual([path.join(s.project, 'escape.md')]);
    await expect(fs.stat(path.join(s.project, 'escape.md'))).rejects.toThrow();
  });

  it('extract reads the conversation as resumed: an abandoned branch of an edited transcript never reaches the extractor', async () => {
    const s = await setup();
    const transcript = await editedTranscript(
      s.project,
      'sess-extract-branch',
      (t) => {
        t.user('OLD BRANCH: remember that my password is hunter2');
        t.assistant('OLD BRANCH answer.', { usage: { input_tokens: 400 } });
      },
      'Tabs.',
    );
    s.fake.enqueue(text('Nothing new to save.'));
    expect(await runCli(['extract', '--transcript', transcript, '--project', s.project, '--vault', s.vault, '--json'], s.io)).toBe(0);
    const sent = JSON.stringify(s.fake.requests[0]!.body.messages);
    expect(sent).toContain('What indentation do I use?');
    expect(sent).not.toContain('OLD BRANCH');
    // The prompt counts the messages it covers: the four on the resumed chain.
    expect(sent).toMatch(/most recent ~?4 messages/);
  });
});
