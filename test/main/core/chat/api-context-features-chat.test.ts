import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatItem } from '../../../../common/domain/chat.js';
import { text, toolCalls } from '../../../fakes/anthropic-server/index.js';
import { chatFixture, expectAllAccepted, type ChatFixture } from './chat-fixture.js';

let f: ChatFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

const requestText = (fx: ChatFixture, i: number) => JSON.stringify(fx.fake.requests[i]!.body.messages);

describe('the API context features in a conversation', () => {
  it('server compaction: the paused request is followed by one that starts from the summary, with CLAUDE.md and MEMORY.md injected again, under a divider', async () => {
    f = await chatFixture();
    await f.call('settings:set', { patch: { serverCompaction: true } });
    await fs.writeFile(path.join(f.project, 'CLAUDE.md'), 'Always answer in French. (marker-claude-md)\n');
    const memoryDir = (await f.services.vault().sessions.paths(f.project)).memoryDir;
    await fs.mkdir(memoryDir, { recursive: true });
    await fs.writeFile(path.join(memoryDir, 'MEMORY.md'), '- [Role](user_role.md) — teacher (marker-memory-index)\n');
    const sessionId = await f.newSession();
    f.fake.enqueue(text('Bonjour.'));
    await f.turn(sessionId, 'First question about the trip.');
    f.fake.enqueue({ kind: 'message', content: [], compaction: '# Session Title\nPlanning the Lisbon trip (marker-summary)', stopReason: 'compaction' }, text('Voici la suite.'));
    const update = await f.turn(sessionId, 'And the hotel?');
    expect(update.error).toBeNull();

    const paused = f.fake.requests[1]!;
    expect(String(paused.headers['anthropic-beta'])).toContain('compact-2026-01-12');
    expect(JSON.stringify((paused.body as { context_management?: unknown }).context_management)).toContain('"type":"compact_20260112"');
    expect(JSON.stringify((paused.body as { context_management?: unknown }).context_management)).toContain('# Session Title');
    // The request after the pause: the summary first, then the context again; the old turns are gone.
    const after = requestText(f, 2);
    expect(after).toContain('marker-summary');
    expect(after).toContain('marker-claude-md');
    expect(after).toContain('marker-memory-index');
    expect(after).not.toContain('First question about the trip.');
    // As after any compaction, the context reminder leads the first user message (Claude Code's placement).
    expect(after.indexOf('marker-claude-md')).toBeLessThan(after.indexOf('marker-summary'));

    const records = await f.transcript(sessionId);
    const boundary = records.find((r) => r.subtype === 'compact_boundary') as { compactMetadata: { path: string } } | undefined;
    expect(boundary?.compactMetadata.path).toBe('server');
    const view = await f.call('chat:open-session', { project: f.project, sessionId });
    const divider = view.items.find((i: ChatItem) => i.kind === 'compaction');
    expect(divider).toMatchObject({ kind: 'compaction', path: 'server' });
    expect(view.items.some((i: ChatItem) => i.kind === 'assistant' && i.text.includes('Voici la suite.'))).toBe(true);
    expectAllAccepted(f.fake);
  });

  it('context editing is on by default: old tool results are cleared past the trigger and the meter shows it', async () => {
    f = await chatFixture();
    await f.call('settings:set', { patch: { memory: { contextFeatures: { clearTriggerTokens: 3_000, clearKeepToolUses: 1, clearAtLeastTokens: 500, serverCompactionTriggerTokens: 150_000 } } } });
    for (let i = 0; i < 4; i++) await fs.writeFile(path.join(f.project, `notes${i}.txt`), `line ${i} of a long file\n`.repeat(200));
    const sessionId = await f.newSession();
    f.fake.enqueue(...[0, 1, 2, 3].map((i) => toolCalls([{ name: 'Read', input: { file_path: path.join(f!.project, `notes${i}.txt`) } }])), text('Read them all.'));
    const update = await f.turn(sessionId, 'Read the four notes files.');
    expect(update.error).toBeNull();
    const last = f.fake.requests.at(-1)!;
    expect(String(last.headers['anthropic-beta'])).toContain('context-management-2025-06-27');
    expect(update.context.cleared).toBeGreaterThan(1_000);
    // The meter counts what the API saw: less than the whole conversation as the transcript holds it.
    const full = JSON.stringify(last.body.messages).length / 4;
    expect(update.context.used).toBeLessThan(full);
    const records = await f.transcript(sessionId);
    expect(records.some((r) => (r.message as { context_management?: { cleared_tool_uses: number } } | undefined)?.context_management?.cleared_tool_uses)).toBe(true);
    expectAllAccepted(f.fake);
  });

  it('context editing off: no beta header and no context_management', async () => {
    f = await chatFixture();
    await f.call('settings:set', { patch: { contextEditing: false } });
    const sessionId = await f.newSession();
    f.fake.enqueue(text('Hi.'));
    await f.turn(sessionId, 'Hello');
    expect(f.fake.requests[0]!.headers['anthropic-beta']).toBeUndefined();
    expect(f.fake.requests[0]!.body).not.toHaveProperty('context_management');
  });
});
