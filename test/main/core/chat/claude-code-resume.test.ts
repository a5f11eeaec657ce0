import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { slug } from '../../../../common/paths/slug.js';
import { toApiMessages } from '../../../../main/core/agent/api-messages.js';
import { isItemRecord } from '../../../../main/core/chat/records-to-items.js';
import { conversationChain } from '../../../../main/core/transcripts/conversation-chain.js';
import { parseJsonl } from '../../../../main/core/transcripts/jsonl.js';
import { apiErrors, text, toolCalls } from '../../../fakes/anthropic-server/index.js';
import { claudeCode, runClaude } from '../../../conformance/claude-code-oracle.js';
import { tempDir } from '../../../support/temp-dir.js';
import { chatFixture, expectAllAccepted, type ChatFixture } from './chat-fixture.js';

let f: ChatFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

/** Claude Code 2.1.88 as the oracle (installed into the conformance cache, or skipped with the registry's reason). */
const oracle = await claudeCode();
if ('skip' in oracle) console.warn(`the resume-by-Claude-Code test is skipped: ${oracle.skip}`);

/** A Strata conversation with every kind of extra record: a memory card, "Stopped", a failed turn, a compaction notice. */
async function strataConversation(fixture: ChatFixture): Promise<string> {
  const sessionId = await fixture.newSession();
  const memoryDir = (await fixture.services.vault().sessions.paths(fixture.project)).memoryDir;
  fixture.fake.enqueue(
    toolCalls([{ name: 'Write', input: { file_path: path.join(memoryDir, 'user_name.md'), content: '---\nname: Their name\ndescription: The user is called Ada\ntype: user\n---\nThe user is called Ada.\n' } }]),
    text('I will remember that, Ada.'),
  );
  await fixture.turn(sessionId, 'Remember that my name is Ada');
  fixture.fake.enqueue(text('word '.repeat(300), { chunkChars: 5, chunkDelayMs: 10 }));
  const streaming = fixture.next('chat:did-stream', (d) => d.sessionId === sessionId);
  const stopped = fixture.turn(sessionId, 'Tell me a long story');
  await streaming;
  await fixture.call('chat:stop', { sessionId });
  await stopped;
  fixture.fake.enqueue(apiErrors.overloaded());
  await fixture.turn(sessionId, 'Which city is the launch in?');
  fixture.fake.enqueue(text('Lisbon.'));
  const retried = fixture.next('chat:did-update', (u) => u.sessionId === sessionId && u.phase === 'idle');
  await fixture.call('chat:retry', { project: fixture.project, sessionId });
  await retried;
  return sessionId;
}

describe('Strata and Claude Code read each other’s conversations', () => {
  it('keeps its cards in records no message chain and no API request ever contains', async () => {
    f = await chatFixture();
    const sessionId = await strataConversation(f);
    const records = await f.transcript(sessionId);
    const items = records.filter((r) => r.type === 'strata-item');
    expect(items.map((r) => (r.item as { kind: string }).kind)).toEqual(expect.arrayContaining(['memory', 'turn-end']));
    // Claude Code's reader keys messages by uuid and knows only its own record types: these have neither.
    for (const r of items) {
      expect(r.uuid).toBeUndefined();
      expect(r.parentUuid).toBeUndefined();
      expect(r.message).toBeUndefined();
      expect(['user', 'assistant', 'system', 'attachment', 'summary']).not.toContain(r.type);
    }
    const parsed = parseJsonl((await f.transcript(sessionId)).map((r) => JSON.stringify(r)).join('\n')).records;
    const chain = conversationChain(parsed).records;
    expect(chain.some(isItemRecord)).toBe(false);
    const sent = JSON.stringify(toApiMessages(parsed));
    expect(sent).toContain('Which city is the launch in?');
    expect(sent).not.toMatch(/No answer —|strata-item|turn-end/);
    // What Strata itself sent the model never held them either.
    expect(JSON.stringify(f.fake.requests.map((r) => r.body.messages))).not.toMatch(/No answer —|strata-item|"Stopped"/);
    expectAllAccepted(f.fake);
  });

  it('opens a conversation Claude Code wrote, ignoring the records it does not show', async () => {
    f = await chatFixture();
    const paths = await f.services.vault().sessions.paths(f.project);
    const fixture = await fs.readFile(path.resolve('test/fixtures/transcripts/claude-code-small.jsonl'), 'utf8');
    const sessionId = '7f3c9b1e-0d2a-4c55-9a1e-2b7d1c0e4f10';
    await fs.mkdir(paths.transcriptsDir, { recursive: true });
    await fs.writeFile(paths.transcriptFile(sessionId), fixture);
    const view = await f.call('chat:open-session', { project: f.project, sessionId });
    expect(view.items[0]).toMatchObject({ kind: 'user', text: 'Why does the parser drop the last token?' });
    expect(view.items.some((i) => i.kind === 'assistant')).toBe(true);
    expect(JSON.stringify(view.items)).not.toContain('file-history-snapshot');
  });

  it.skipIf('skip' in oracle)('is resumed by the real Claude Code, which sends the history without Strata’s records', async () => {
    f = await chatFixture();
    const sessionId = await strataConversation(f);
    const project = await fs.realpath(f.project);
    const home = await tempDir('strata-cc-home-');
    const config = path.join(home, '.claude');
    const ccProject = path.join(config, 'projects', slug(project));
    await fs.mkdir(ccProject, { recursive: true });
    const paths = await f.services.vault().sessions.paths(f.project);
    await fs.copyFile(paths.transcriptFile(sessionId), path.join(ccProject, `${sessionId}.jsonl`));

    const before = f.fake.requests.length;
    f.fake.enqueue(text('You first asked me to remember your name.'));
    const out = await runClaude(oracle as { cli: string }, { cwd: project, home, configDir: config, apiUrl: f.fake.url, prompt: 'What did I ask first?', resume: sessionId });
    const main = f.fake.requests.slice(before).find((r) => JSON.stringify(r.body.messages).includes('What did I ask first?'));
    expect(main, `Claude Code sent no request with the prompt: ${out.stderr.slice(0, 500)}`).toBeDefined();
    const sent = JSON.stringify(main!.body.messages);
    expect(sent).toContain('Remember that my name is Ada');
    expect(sent).toContain('I will remember that, Ada.');
    expect(sent).toContain('Lisbon.');
    expect(sent).not.toMatch(/No answer —|strata-item|turn-end/);
    expect(out.result.result).toBe('You first asked me to remember your name.');
  }, 120_000);
});
