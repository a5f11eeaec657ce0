import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/temp-dir.js';
import { fakeClock, openVault } from './vault-helpers.js';

const MEM = 'projects/p1/memory';
const NOW = Date.parse('2026-12-05T12:00:00Z');
const DAY = 86_400_000;

const memory = (name: string, dates: string, shape: 'flat' | 'metadata' = 'flat') =>
  shape === 'flat'
    ? `---\nname: ${name}\ndescription: about ${name}\ntype: project\n${dates}---\n\n${name} body.\n`
    : `---\nname: ${name}\ndescription: about ${name}\nmetadata:\n  type: project\n${dates.replace(/^/gm, '  ').replace(/ {2}$/, '')}---\n\n${name} body.\n`;

async function root(): Promise<string> {
  const r = await tempDir('strata-health-fresh-');
  await fs.mkdir(path.join(r, MEM), { recursive: true });
  await fs.writeFile(path.join(r, MEM, 'expired.md'), memory('expired', 'validUntil: 2026-11-30\n'));
  await fs.writeFile(path.join(r, MEM, 'due.md'), memory('due', 'reviewOn: 2026-12-01\n', 'metadata'));
  await fs.writeFile(path.join(r, MEM, 'later.md'), memory('later', 'validUntil: 2027-06-01\n'));
  await fs.writeFile(path.join(r, MEM, 'plain.md'), memory('plain', ''));
  // Old files: the one with its own future date is judged by it, the plain one is stale.
  for (const f of ['later.md', 'plain.md']) await fs.utimes(path.join(r, MEM, f), (NOW - 200 * DAY) / 1000, (NOW - 200 * DAY) / 1000);
  await fs.writeFile(path.join(r, MEM, 'MEMORY.md'), ['expired', 'due', 'later', 'plain'].map((n) => `- [${n}](${n}.md) — x`).join('\n') + '\n');
  return r;
}

describe('Health lists memories past their dates (docs/memory.md#freshness)', () => {
  it('lists the expired and the due ones, and a dated memory is not also stale by age', async () => {
    const { vault } = await openVault(await root(), { clock: fakeClock(NOW) });
    const report = await vault.health();
    const byKind = (kind: string) => report.problems.filter((p) => p.kind === kind).map((p) => p.path);
    expect(byKind('expired')).toEqual([`${MEM}/expired.md`]);
    expect(byKind('review-due')).toEqual([`${MEM}/due.md`]);
    expect(byKind('stale')).toEqual([`${MEM}/plain.md`]);
    expect(report.problems.find((p) => p.kind === 'expired')).toMatchObject({ message: expect.stringContaining('Valid until 2026-11-30'), fix: 'Renew for 90 days' });
    expect(vault.list().find((f) => f.path === `${MEM}/due.md`)!.memory).toEqual({ reviewOn: '2026-12-01' });
  });

  it('renews an expired memory and a due one from today, keeping their other lines, with the old text in history', async () => {
    const r = await root();
    const { vault } = await openVault(r, { clock: fakeClock(NOW) });
    expect(await vault.healthFix('expired')).toMatchObject({ fixed: 1, failed: [] });
    expect(await vault.healthFix('review-due', [`${MEM}/due.md`])).toMatchObject({ fixed: 1, failed: [] });
    expect(await fs.readFile(path.join(r, MEM, 'expired.md'), 'utf8')).toBe(memory('expired', 'validUntil: 2027-03-05\n'));
    expect(await fs.readFile(path.join(r, MEM, 'due.md'), 'utf8')).toBe(memory('due', 'reviewOn: 2027-03-05\n', 'metadata'));
    const kinds = (await vault.health()).problems.map((p) => p.kind);
    expect(kinds).not.toContain('expired');
    expect(kinds).not.toContain('review-due');
    const history = await vault.timeline(`${MEM}/expired.md`);
    expect(JSON.stringify(history)).toContain('health-fix');
  });
});
