import { promises as fs } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileCursorStore } from '../../../../main/core/auto-memory/extraction-cursor.js';
import { SessionMemoryStateStore } from '../../../../main/core/session-memory/index.js';
import { SessionStateStore } from '../../../../main/core/transcripts/session-state-store.js';
import { tempDir } from '../../../support/temp-dir.js';

describe('FileCursorStore', () => {
  it('shares the session file with the notes updater’s state without losing either side’s concurrent updates', async () => {
    const shared = new SessionStateStore(await tempDir());
    const cursors = new FileCursorStore(shared);
    const notes = new SessionMemoryStateStore(shared);
    const rounds = 25;
    await Promise.all(
      Array.from({ length: rounds }, (_, i) => [
        cursors.write('s1', { lastMessageUuid: `m${i}`, updatedAt: `t${i}` }),
        notes.update('s1', (s) => ({ ...s, tokensAtLastUpdate: s.tokensAtLastUpdate + 1 })),
      ]).flat(),
    );
    expect((await notes.read('s1')).tokensAtLastUpdate).toBe(rounds);
    expect(await cursors.read('s1')).toEqual({ lastMessageUuid: `m${rounds - 1}`, updatedAt: `t${rounds - 1}` });
    const stored = JSON.parse(await fs.readFile(shared.fileFor('s1'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(stored).sort()).toEqual(['extraction', 'sessionMemory']);
  });

  it('reads no cursor from a missing file or a foreign shape, and one from a vault path', async () => {
    const vault = await tempDir();
    const cursors = new FileCursorStore(vault);
    expect(await cursors.read('s1')).toBeNull();
    await fs.mkdir(new SessionStateStore(vault).dir, { recursive: true });
    await fs.writeFile(new SessionStateStore(vault).fileFor('s1'), JSON.stringify({ extraction: 'nope' }));
    expect(await cursors.read('s1')).toBeNull();
    await cursors.write('s1', { lastMessageUuid: 'm1', updatedAt: 'now' });
    expect(await new FileCursorStore(vault).read('s1')).toEqual({ lastMessageUuid: 'm1', updatedAt: 'now' });
  });
});
