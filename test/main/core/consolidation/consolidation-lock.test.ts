import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConsolidationLock, LOCK_FILE } from '../../../../main/core/consolidation/index.js';
import { mergeIndex } from '../../../../main/core/consolidation/index-merge.js';
import { tempDir } from '../../../support/temp-dir.js';

const T = Date.UTC(2026, 11, 4, 9);

describe('ConsolidationLock', () => {
  it("reads Claude Code's lock (a PID, its mtime the last run) and writes its own so Claude Code reads the same time", async () => {
    const dir = await tempDir();
    const file = path.join(dir, LOCK_FILE);
    await fs.writeFile(file, '4242');
    await fs.utimes(file, new Date(T - 3_600_000), new Date(T - 3_600_000));
    let now = T;
    const lock = new ConsolidationLock(dir, { now: () => now }, 3_600_000);
    expect(await lock.lastRunAt()).toBe(T - 3_600_000);
    const held = await lock.acquire();
    expect(held.ok).toBe(true);
    expect(await new ConsolidationLock(dir, { now: () => now }, 3_600_000).acquire()).toEqual({ ok: false, heldSince: T });
    now += 60_000;
    if (held.ok) await held.lock.release(true);
    expect((await fs.stat(file)).mtimeMs).toBe(T + 60_000);
    expect(await lock.lastRunAt()).toBe(T + 60_000);
  });
});

describe('mergeIndex', () => {
  const before = '# Memory\n- [A](a.md) — a\n- [B](b.md) — b\n- [C](c.md) — c\n';
  it("keeps the pass's index, drops lines of files removed since, adds lines added since, keeps lines of files the user kept", () => {
    const current = '# Memory\n- [A](a.md) — a\n- [C](c.md) — c\n- [D](d.md) — added meanwhile\n';
    const after = '# Memory\n- [A](a.md) — a, merged with b\n- [C](c.md) — c\n';
    expect(mergeIndex(before, current, after)).toBe('# Memory\n- [A](a.md) — a, merged with b\n- [C](c.md) — c\n- [D](d.md) — added meanwhile\n');
    const dropsC = '# Memory\n- [A](a.md) — a\n- [B](b.md) — b\n';
    expect(mergeIndex(before, before, dropsC, new Set(['c.md']))).toBe(before.replace('- [C](c.md) — c\n', '') + '- [C](c.md) — c\n');
  });
});
