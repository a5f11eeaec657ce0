import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { conversationChain } from '../../../../main/core/transcripts/conversation-chain.js';
import { TranscriptStore } from '../../../../main/core/transcripts/transcript-store.js';
import { tempDir } from '../../../support/temp-dir.js';

const SLUG = '-Users-me-app';
const base = { sessionId: 'cc1', cwd: '/Users/me/app', version: '2.1.88', gitBranch: 'main', userType: 'external', isSidechain: false };

/** Lines as Claude Code writes them: snapshots, meta caveats, a thinking + tool_use response sharing one message.id, a tool result, a summary. */
const lines = [
  { type: 'file-history-snapshot', messageId: 'u1', snapshot: { trackedFileBackups: {} }, isSnapshotUpdate: false },
  { ...base, type: 'user', uuid: 'm0', parentUuid: null, timestamp: '2026-03-01T10:00:00.000Z', isMeta: true, message: { role: 'user', content: 'Caveat: local commands follow.' } },
  { ...base, type: 'user', uuid: 'u1', parentUuid: 'm0', timestamp: '2026-03-01T10:00:01.000Z', message: { role: 'user', content: [{ type: 'text', text: 'Why does the build fail?' }] } },
  { ...base, type: 'assistant', uuid: 'a1', parentUuid: 'u1', timestamp: '2026-03-01T10:00:03.000Z', requestId: 'req_1', message: { id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'thinking', thinking: 'Check the log.', signature: 'sig' }], stop_reason: null, usage: { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } } },
  { ...base, type: 'assistant', uuid: 'a2', parentUuid: 'a1', timestamp: '2026-03-01T10:00:04.000Z', requestId: 'req_1', message: { id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/Users/me/app/build.log' } }], stop_reason: 'tool_use', usage: { input_tokens: 10, output_tokens: 30, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } } },
  { ...base, type: 'user', uuid: 'u2', parentUuid: 'a2', timestamp: '2026-03-01T10:00:05.000Z', toolUseResult: { type: 'text' }, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'error TS2322' }] } },
  { ...base, type: 'assistant', uuid: 'a3', parentUuid: 'u2', timestamp: '2026-03-01T10:00:09.000Z', message: { id: 'msg_02', role: 'assistant', content: [{ type: 'text', text: 'A type error.' }], stop_reason: 'end_turn' } },
  { type: 'summary', summary: 'Build failure from a type error', leafUuid: 'a3' },
];

describe('real Claude Code transcripts', () => {
  it('reads every record, titles the session from its summary and resumes the full chain', async () => {
    const vault = await tempDir();
    const file = path.join(vault, 'projects', SLUG, 'cc1.jsonl');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const store = new TranscriptStore({ vaultRoot: vault });
    const read = await store.read(SLUG, 'cc1');
    expect(read.records).toHaveLength(lines.length);
    expect(read.malformed).toEqual([]);
    const [summary] = await store.list(SLUG);
    expect(summary).toMatchObject({
      sessionId: 'cc1',
      title: 'Build failure from a type error',
      messageCount: 6,
      updatedAt: Date.parse('2026-03-01T10:00:09.000Z'),
      createdAt: Date.parse('2026-03-01T10:00:00.000Z'),
    });
    const chain = conversationChain(read.records);
    expect(chain.messages.map((m) => m.uuid)).toEqual(['m0', 'u1', 'a1', 'a2', 'u2', 'a3']);
  });

  it('titles an untitled Claude Code session from the first typed prompt, not the meta caveat', async () => {
    const vault = await tempDir();
    const file = path.join(vault, 'projects', SLUG, 'cc1.jsonl');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, lines.slice(0, -1).map((l) => JSON.stringify(l)).join('\n') + '\n');
    const [summary] = await new TranscriptStore({ vaultRoot: vault }).list(SLUG);
    expect(summary).toMatchObject({ title: 'Why does the build fail?', titles: expect.objectContaining({ custom: null, summary: null }) });
  });
});
