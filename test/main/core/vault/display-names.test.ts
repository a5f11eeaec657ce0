import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NOTES_TEMPLATE } from '../../../../main/core/session-memory/template.js';
import { tempDir } from '../../../support/temp-dir.js';
import { memoryText, openVault } from './vault-helpers.js';

const SLUG = '-tmp-x-my-app';
const SESSION = '3f0c1d2e-0000-4000-8000-00000000000a';

const userLine = (text: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 'user', uuid: 'u1', parentUuid: null, sessionId: SESSION, timestamp: '2026-01-01T00:00:00Z', cwd: '/tmp/x/my.app', message: { role: 'user', content: text }, ...extra });

async function root(): Promise<string> {
  const r = await tempDir('strata-names-');
  await fs.mkdir(path.join(r, 'projects', SLUG, 'memory'), { recursive: true });
  await fs.mkdir(path.join(r, 'projects', SLUG, SESSION, 'session-memory'), { recursive: true });
  await fs.writeFile(path.join(r, 'projects', SLUG, `${SESSION}.jsonl`), `${userLine('<system-reminder>ctx</system-reminder>', { isMeta: true })}\n${userLine('  Plan the   trip to Lisbon\nwith details')}\n`);
  await fs.writeFile(path.join(r, 'projects', SLUG, 'memory', 'user_prefers_tabs.md'), memoryText('Prefers tabs', 'Tabs over spaces', 'Tabs.'));
  return r;
}

describe('the engine names things as people know them', () => {
  it('names a memory by its name, a conversation by its first question, a project by its folder', async () => {
    const r = await root();
    await fs.writeFile(path.join(r, 'projects', SLUG, SESSION, 'session-memory', 'summary.md'), DEFAULT_NOTES_TEMPLATE);
    const { vault } = await openVault(r);
    const byPath = new Map(vault.list().map((m) => [m.path, m]));
    expect(byPath.get(`projects/${SLUG}/memory/user_prefers_tabs.md`)).toMatchObject({ title: 'Prefers tabs', projectName: 'my.app' });
    expect(byPath.get(`projects/${SLUG}/${SESSION}/session-memory/summary.md`)!.title).toBe('Plan the trip to Lisbon with details');
    expect(byPath.get(`projects/${SLUG}/${SESSION}.jsonl`)!.title).toBe('Plan the trip to Lisbon with details');
  });

  it("prefers the notes' own Session Title, and an opened project's folder name", async () => {
    const r = await root();
    const notes = DEFAULT_NOTES_TEMPLATE.replace(/(# Session Title\n_[^\n]*_\n)/, '$1Lisbon trip: flights and hotels\n');
    await fs.writeFile(path.join(r, 'projects', SLUG, SESSION, 'session-memory', 'summary.md'), notes);
    const { vault } = await openVault(r);
    const project = await tempDir('strata-names-project-');
    await vault.setProjects([{ path: project, memorySlug: SLUG }]);
    const byPath = new Map(vault.list().map((m) => [m.path, m]));
    expect(byPath.get(`projects/${SLUG}/${SESSION}/session-memory/summary.md`)!.title).toBe('Lisbon trip: flights and hotels');
    expect(byPath.get(`projects/${SLUG}/memory/user_prefers_tabs.md`)!.projectName).toBe(path.basename(project));
  });
});
