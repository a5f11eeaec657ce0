import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureNotesFile, notesPathFor, readNotes, realProjectPath } from '../../../../main/core/session-memory/index.js';
import { slug } from '../../../../main/core/paths/slug.js';
import { tempDir } from '../../../support/temp-dir.js';

describe('the notes file', () => {
  it('lives at projects/<slug>/<sessionId>/session-memory/summary.md of the real project path', async () => {
    const vault = await tempDir();
    const project = await tempDir();
    await fs.symlink(project, path.join(vault, 'link'));
    const real = await realProjectPath(path.join(vault, 'link'));
    expect(real).toBe(project);
    expect(notesPathFor(vault, real, 'abc-1')).toBe(path.join(vault, 'projects', slug(project), 'abc-1', 'session-memory', 'summary.md'));
  });

  it('refuses a session id that is not one path segment', () => {
    expect(() => notesPathFor('/v', '/p', '../x')).toThrow(/invalid session id/);
  });

  it('is created from the template with a private folder and file', async () => {
    const vault = await tempDir();
    const file = notesPathFor(vault, '/p', 's1');
    expect(await ensureNotesFile(file, '# T\n_d_\n')).toBe(true);
    expect(await readNotes(file)).toBe('# T\n_d_\n');
    expect((await fs.stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  });

  it('is never overwritten once it exists', async () => {
    const vault = await tempDir();
    const file = notesPathFor(vault, '/p', 's1');
    await ensureNotesFile(file, 'template');
    await fs.writeFile(file, 'my notes');
    expect(await ensureNotesFile(file, 'template')).toBe(false);
    expect(await readNotes(file)).toBe('my notes');
  });

  it('reads as null when missing', async () => {
    expect(await readNotes(path.join(await tempDir(), 'none.md'))).toBeNull();
  });
});
