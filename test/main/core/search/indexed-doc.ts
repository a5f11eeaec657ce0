import type { IndexedDoc } from '../../../../main/core/search/search-index.js';

/** A project memory as the index holds it, with only what a search test looks at filled in. */
export function indexedDoc(path: string, title: string, text: string): IndexedDoc {
  return {
    meta: { path, scope: 'project-memory', projectSlug: 'p', title, description: null, type: null, size: text.length, mtime: new Date(0).toISOString(), error: null, binary: false, tooLarge: false },
    hash: null,
    ino: 1,
    path,
    scope: 'project-memory',
    projectSlug: 'p',
    type: null,
    title,
    text,
    mtimeMs: 0,
    size: text.length,
  };
}
