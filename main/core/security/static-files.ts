import { promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * The content types of the built renderer's files, served by the Electron `app://` protocol and by
 * `strata host` alike (both send `nosniff`, so the type must be right). Anything else is bytes.
 */
const mimeTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.map': 'application/json',
};

export const mimeTypeOf = (file: string): string => mimeTypes[path.extname(file)] ?? 'application/octet-stream';

/**
 * Resolves a URL path to a file inside `root`, or null: no `..` escape, no symlink out, no folders.
 * Both ways of serving the renderer go through it (docs/security.md).
 */
export async function resolveStaticFile(root: string, urlPath: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const candidate = path.resolve(root, `.${path.posix.normalize(`/${decoded}`)}`);
  const [real, realRoot] = await Promise.all([fs.realpath(candidate).catch(() => null), fs.realpath(root)]);
  if (!real || !real.startsWith(realRoot + path.sep)) return null;
  const stat = await fs.stat(real);
  return stat.isFile() ? real : null;
}
