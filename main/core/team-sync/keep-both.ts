import path from 'node:path';
import { formatIndexLine, parseIndex, parseMemoryFile, withFrontmatterName } from '../../../common/memory-file/index.js';

/**
 * "Keep both" of a team-memory conflict. The shared key takes the team's version (what every teammate
 * already has), and the local version moves to a sibling memory named by its author and the day, e.g.
 * "Prefers tabs (dana's version, 4 Dec)". The label is absolute, never "mine" or "theirs": the copy
 * syncs to the teammates, and a relative label would call a teammate's own text "theirs" in their vault.
 * The signed-in account is the one author this device knows for certain (the team server records no
 * author per entry), which is why the copy holds the local text.
 */

/** `dana's version, 4 Dec`: who wrote the copy's text and the day it was set aside. */
export function versionLabel(author: string, at: Date): string {
  const day = at.toLocaleDateString('en-GB', { day: 'numeric', month: 'short' });
  return `${author}'s version, ${day}`;
}

/**
 * The copy's key candidates next to `key`: `notes.md` → `notes-dana-2026-12-04.md`, then `…-2.md`.
 * No spaces or parentheses, so the MEMORY.md pointer is a plain markdown link every reader parses; the
 * author is reduced to characters every file system and the key validator accept (a username may hold
 * `..`, which no key may). The frontmatter `name` carries the readable label.
 */
export function* copyKeys(key: string, author: string, at: Date): Generator<string> {
  const ext = path.posix.extname(key);
  const stem = key.slice(0, key.length - ext.length);
  const who = author.replace(/[^\p{L}\p{N}_@-]+/gu, '-').replace(/^-+|-+$/g, '') || 'copy';
  const day = `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
  for (let n = 1; ; n++) yield `${stem}-${who}-${day}${n > 1 ? `-${n}` : ''}${ext}`;
}

/**
 * The text with its frontmatter `name` set to `name`, so the copy never shows as a twin of the
 * original: edited as YAML, so a name over several lines (`>`, `|`, a quoted string) goes whole and the
 * copy's frontmatter stays valid for every teammate it syncs to. A file without frontmatter is returned
 * as it is (its title is its file name, which already carries the label); frontmatter YAML cannot read
 * gets its top-level `name:` line, and the indented lines that continue it, replaced.
 */
export function renameMemory(text: string, name: string): string {
  const edited = withFrontmatterName(text, name);
  if (edited !== null) return edited;
  const head = /^(\uFEFF?---[ \t]*\r?\n)([\s\S]*?)(\r?\n---[ \t]*(?:\r?\n|$))/.exec(text);
  if (!head) return text;
  const line = `name: ${JSON.stringify(name)}`;
  const fields = head[2]!;
  const nameLine = /^name[ \t]*:.*(?:\r?\n[ \t]+.*)*$/m;
  const renamed = nameLine.test(fields) ? fields.replace(nameLine, line) : `${line}\n${fields}`;
  return head[1]! + renamed + head[3]! + text.slice(head[0].length);
}

/** The copy's title: its frontmatter name, else the original's file name, with the label. */
export function copyTitle(text: string, key: string, label: string): string {
  // A name written over several lines (`|` keeps its line breaks) is one line of title.
  const original = parseMemoryFile(text).name?.replace(/\s+/g, ' ') ?? path.posix.basename(key, path.posix.extname(key));
  return `${original} (${label})`;
}

/**
 * MEMORY.md with a pointer to the copy: right after the original's line when there is one (the two read
 * as a pair), else at the end. `index` null = no MEMORY.md yet. Only under the caps the agent reads the
 * index to (docs/memory.md#memory-index), as every writer of an index line: when the line does not fit,
 * the index is returned as it was with the cap it would have broken.
 */
export function indexWithCopy(
  index: string | null,
  originalKey: string,
  copyKey: string,
  title: string,
  hook: string,
  caps: { indexMaxLines: number; indexMaxChars: number },
): { text: string; limit: 'lines' | 'characters' | null } {
  const entry = formatIndexLine(title, copyKey, hook);
  if (index === null || index.trim() === '') return { text: `${entry}\n`, limit: null };
  const lines = index.split('\n');
  const count = index.replace(/\n$/, '').split('\n').length;
  if (count + 1 > caps.indexMaxLines) return { text: index, limit: 'lines' };
  if (index.replace(/\n*$/, '\n').length + entry.length + 1 > caps.indexMaxChars) return { text: index, limit: 'characters' };
  const original = parseIndex(index).find((p) => p.target === originalKey);
  if (original) {
    lines.splice(original.line, 0, entry);
    return { text: lines.join('\n'), limit: null };
  }
  return { text: `${index.replace(/\n*$/, '')}\n${entry}\n`, limit: null };
}
