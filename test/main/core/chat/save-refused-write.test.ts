import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatItem } from '../../../../common/domain/chat.js';
import { parseFindingRefs } from '../../../../common/domain/secrets.js';
import { text, toolCalls } from '../../../fakes/anthropic-server/index.js';
import { githubToken, SeededRandom } from '../../../fixtures/secrets/seeded-random.js';
import { chatFixture, expectAllAccepted, type ChatFixture } from './chat-fixture.js';

let f: ChatFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

const note = (body: string) => `---\nname: Training token\ndescription: the revoked token of the security exercise\ntype: reference\n---\n${body}\n`;
const read = (file: string) => fs.readFile(file, 'utf8').catch(() => null);

/** A conversation whose agent tried to save a memory holding a token, refused by the secret guard. */
async function refusedWrite() {
  f = await chatFixture();
  const token = githubToken(new SeededRandom(52), 'ghp');
  const sessionId = await f.newSession();
  const file = path.join((await f.services.vault().sessions.paths(f.project)).memoryDir, 'reference_training.md');
  const content = note(`The exercise's leaked token: ${token}`);
  f.fake.enqueue(toolCalls([{ name: 'Write', input: { file_path: file, content } }]), text('I could not save that.'));
  await f.turn(sessionId, 'Remember the token from the security training');
  const { items } = await f.call('chat:open-session', { project: f.project, sessionId });
  const tool = items.find((i): i is Extract<ChatItem, { kind: 'tool' }> => i.kind === 'tool')!;
  expect(tool.status).toBe('error');
  const [finding] = parseFindingRefs(tool.result!);
  return { fx: f, token, sessionId, file, content, tool, finding: finding! };
}

/**
 * "Save it now" (docs/security.md#secrets-scanning): after the user marks the refused write's finding
 * "Not a secret", main makes the write it held — the same content, through the same tool, sandbox and
 * guard — without asking the model again; the card follows, and the value never reaches the transcript.
 */
describe('Save it now on a refused memory write', () => {
  it('writes the held content once its finding is marked, with a memory card, and only then', async () => {
    const { fx, token, sessionId, file, content, tool, finding } = await refusedWrite();
    const save = () => fx.invoke('chat:save-refused-write', { project: fx.project, sessionId, toolUseId: tool.id });

    // Not marked yet: the guard refuses again, in words, and nothing is written.
    const early = await save();
    expect(early.ok).toBe(false);
    expect(!early.ok && early.error.message).toMatch(/still holds a value that looks like a secret/);
    expect(await read(file)).toBeNull();

    await fx.call('secrets:allow', { rule: finding.rule, fingerprint: finding.fingerprint, where: `memory write: ${file}` });
    const requests = fx.fake.requests.length;
    const card = fx.next('chat:did-update', (u) => u.sessionId === sessionId && u.upserts.some((i) => i.kind === 'memory'));
    await fx.call('chat:save-refused-write', { project: fx.project, sessionId, toolUseId: tool.id });
    expect((await card).upserts).toContainEqual(expect.objectContaining({ kind: 'memory', action: 'saved', title: 'Training token', by: 'agent' }));
    // The same content, stamped with the conversation as every agent write is; no model call was made.
    expect((await read(file))!.replace(/^originSessionId: .*\n/m, '')).toBe(content);
    expect(fx.fake.requests.length).toBe(requests);
    // Done once: the held write is gone.
    const again = await save();
    expect(!again.ok && again.error.code).toBe('not_found');

    // The model's call stays recorded without the value; the card shows the memory as saved (the user
    // said the value is not a secret), as any memory card does.
    const records = await fx.transcript(sessionId);
    expect(JSON.stringify(records.filter((r) => r.type !== 'strata-item'))).not.toContain(token);
    expect(JSON.stringify(records.filter((r) => r.type === 'strata-item'))).toContain('Training token');
    const { items } = await fx.call('chat:open-session', { project: fx.project, sessionId });
    expect(items.filter((i) => i.kind === 'memory')).toHaveLength(1);
    expectAllAccepted(fx.fake);
  });

  it('holds nothing across a restart, and a paused project is not written', async () => {
    const { fx, sessionId, file, tool, finding } = await refusedWrite();
    await fx.call('secrets:allow', { rule: finding.rule, fingerprint: finding.fingerprint, where: `memory write: ${file}` });
    await fx.switches({ extraction: false, memoryPaused: true });
    const paused = await fx.invoke('chat:save-refused-write', { project: fx.project, sessionId, toolUseId: tool.id });
    expect(!paused.ok && paused.error.message).toMatch(/memory is paused in this project/);
    expect(await read(file)).toBeNull();

    await fx.switches({ extraction: false, memoryPaused: false });
    await fx.restart();
    const gone = await fx.invoke('chat:save-refused-write', { project: fx.project, sessionId, toolUseId: tool.id });
    expect(!gone.ok && gone.error.code).toBe('not_found');
    expect(!gone.ok && gone.error.message).toMatch(/Ask Strata to save it again/);
    expect(await read(file)).toBeNull();
  });

  it('refuses a tool call id it never held, and a malformed one at the boundary', async () => {
    const { fx, sessionId } = await refusedWrite();
    const unknown = await fx.invoke('chat:save-refused-write', { project: fx.project, sessionId, toolUseId: 'toolu_nothing' });
    expect(!unknown.ok && unknown.error.code).toBe('not_found');
    const bad = await fx.invoke('chat:save-refused-write', { project: fx.project, sessionId, toolUseId: '../../etc' });
    expect(!bad.ok && bad.error.code).toBe('invalid_request');
  });
});
