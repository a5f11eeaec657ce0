import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mimeTypeOf, resolveStaticFile } from '../../../../main/core/security/static-files.js';

describe('the renderer files both servers hand out', () => {
  let dir: string;
  let root: string;

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'strata-static-'));
    root = path.join(dir, 'renderer');
    await fs.mkdir(path.join(root, 'assets'), { recursive: true });
    await fs.writeFile(path.join(root, 'index.html'), '<!doctype html>');
    await fs.writeFile(path.join(root, 'assets', 'app name.js'), 'export {}');
    await fs.writeFile(path.join(dir, 'secret.txt'), 'not for the renderer');
    await fs.symlink(path.join(dir, 'secret.txt'), path.join(root, 'assets', 'link.txt'));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('types what the build emits and sends anything else as bytes', () => {
    expect(mimeTypeOf('/r/index.html')).toBe('text/html; charset=utf-8');
    expect(mimeTypeOf('/r/assets/index-1a2b.js')).toBe('text/javascript; charset=utf-8');
    expect(mimeTypeOf('/r/assets/index-1a2b.css')).toBe('text/css; charset=utf-8');
    expect(mimeTypeOf('/r/assets/font.woff2')).toBe('font/woff2');
    expect(mimeTypeOf('/r/favicon.ico')).toBe('image/x-icon');
    expect(mimeTypeOf('/r/notes.md')).toBe('application/octet-stream');
    expect(mimeTypeOf('/r/Makefile')).toBe('application/octet-stream');
  });

  it('finds a file inside the folder by its URL path, percent-escapes decoded', async () => {
    const real = await fs.realpath(root);
    expect(await resolveStaticFile(root, '/index.html')).toBe(path.join(real, 'index.html'));
    expect(await resolveStaticFile(root, '/assets/app%20name.js')).toBe(path.join(real, 'assets', 'app name.js'));
  });

  it('refuses an escape by .., by an encoded .., by a symlink, a folder, a NUL and a bad escape', async () => {
    for (const urlPath of ['/../secret.txt', '/assets/%2e%2e/%2e%2e/secret.txt', '/assets/link.txt', '/assets', '/', '/index.html%00', '/%E0%A4%A', '/missing.js']) {
      expect(await resolveStaticFile(root, urlPath), urlPath).toBeNull();
    }
  });
});
