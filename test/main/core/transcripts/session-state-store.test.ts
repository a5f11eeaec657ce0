import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionStateStore, type SessionStateSlot } from '../../../../main/core/transcripts/session-state-store.js';
import { tempDir } from '../../../support/temp-dir.js';

interface Cursor {
  uuid: string | null;
  count: number;
}

const cursorSlot: SessionStateSlot<Cursor> = {
  key: 'extractor',
  parse(raw) {
    const r = raw as Partial<Cursor> | undefined;
    return { uuid: typeof r?.uuid === 'string' ? r.uuid : null, count: typeof r?.count === 'number' ? r.count : 0 };
  },
};

const flagSlot: SessionStateSlot<boolean> = { key: 'flag', parse: (raw) => raw === true };

describe('SessionStateStore', () => {
  it('reads a missing state as the slot default', async () => {
    const store = new SessionStateStore(await tempDir());
    expect(await store.get('s1', cursorSlot)).toEqual({ uuid: null, count: 0 });
  });

  it('stores each engine under its own key in .strata/sessions/<id>.json, keeping the others', async () => {
    const vault = await tempDir();
    const store = new SessionStateStore(vault);
    await store.update('s1', cursorSlot, (c) => ({ ...c, uuid: 'u1' }));
    await store.update('s1', flagSlot, () => true);
    const raw = JSON.parse(await fs.readFile(path.join(vault, '.strata', 'sessions', 's1.json'), 'utf8'));
    expect(raw).toEqual({ extractor: { uuid: 'u1', count: 0 }, flag: true });
    expect(await new SessionStateStore(vault).get('s1', cursorSlot)).toEqual({ uuid: 'u1', count: 0 });
  });

  it('serializes concurrent updates so none is lost', async () => {
    const store = new SessionStateStore(await tempDir());
    await Promise.all(Array.from({ length: 25 }, () => store.update('s1', cursorSlot, (c) => ({ ...c, count: c.count + 1 }))));
    expect((await store.get('s1', cursorSlot)).count).toBe(25);
  });

  it('treats a corrupt state file as empty rather than failing the session', async () => {
    const vault = await tempDir();
    const store = new SessionStateStore(vault);
    await fs.mkdir(store.dir, { recursive: true });
    await fs.writeFile(store.fileFor('s1'), '{not json');
    expect(await store.get('s1', flagSlot)).toBe(false);
    await store.update('s1', flagSlot, () => true);
    expect(await store.get('s1', flagSlot)).toBe(true);
  });

  it('removes a session state and refuses unsafe session ids', async () => {
    const store = new SessionStateStore(await tempDir());
    await store.update('s1', flagSlot, () => true);
    await store.remove('s1');
    expect(await store.get('s1', flagSlot)).toBe(false);
    expect(() => store.fileFor('../x')).toThrow(/invalid session id/);
  });
});
