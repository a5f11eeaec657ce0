import path from 'node:path';
import { readLocalFile, writeLocalFile } from './local-tree.js';

/**
 * "Keep both" of a conflict: the other version becomes a memory of its own, never an identical twin.
 * Its file name and its frontmatter `name` say whose version it is and from when, and it is listed in
 * the team folder's MEMORY.md index, so the agent and both teammates see two distinct memories (and
 * go on editing the original rather than the copy).
 */

const indexKey = 'MEMORY.md';

/** `Bob`, `bob@example.com` → `bob`, `bob-example-com`: safe in a file name. */
function slug(who: string): string {
  return who.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'teammate';
}

/** Rewrites the frontmatter `name:` (when there is one) and returns the text and the memory's name. */
export function renameMemory(text: string, key: string, label: string): { text: string; name: string } {
  const front = /^---\r?\n([\s\S]*?)\r?\n---(\r?\n|$)/.exec(text);
  const nameLine = front ? /^name:[ \t]*(.*)$/m.exec(front[1]!) : null;
  if (front && nameLine) {
    const original = nameLine[1]!.trim().replace(/^["']|["']$/g, '');
    const name = `${original} (${label})`;
    const block = front[1]!.replace(nameLine[0], `name: ${JSON.stringify(name)}`);
    return { text: text.replace(front[1]!, block), name };
  }
  const stem = path.posix.basename(key, path.posix.extname(key));
  return { text, name: `${stem} (${label})` };
}

/** The index lines of both sides, mine first, each line once: nothing either teammate listed is dropped. */
export function unionOfLines(mine: string, theirs: string): string {
  const have = new Set(mine.split('\n'));
  const added = theirs.split('\n').filter((line) => line.trim() !== '' && !have.has(line));
  if (added.length === 0) return mine;
  return `${mine}${mine === '' || mine.endsWith('\n') ? '' : '\n'}${added.join('\n')}\n`;
}

/**
 * Writes the other version beside `key` and lists it in MEMORY.md. Returns the key written. A conflict
 * on MEMORY.md itself keeps both by listing every line of both (an index copy would index nothing).
 */
export async function keepBoth(teamDir: string, key: string, theirs: string, who: string | null, when: string): Promise<string> {
  if (key === indexKey) {
    const mine = (await readLocalFile(teamDir, key))?.text ?? '';
    await writeLocalFile(teamDir, key, unionOfLines(mine, theirs), null);
    return key;
  }
  const date = when.slice(0, 10);
  const label = `${who ?? 'a teammate'}'s version, ${date}`;
  const ext = path.posix.extname(key);
  const stem = key.slice(0, key.length - ext.length);
  const candidate = (n: number) => `${stem}.${slug(who ?? 'teammate')}-${date}${n > 1 ? `-${n}` : ''}${ext}`;
  let n = 1;
  while (await readLocalFile(teamDir, candidate(n))) n++;
  const copyKey = candidate(n);
  const { text, name } = renameMemory(theirs, key, label);
  await writeLocalFile(teamDir, copyKey, text, null);
  const index = (await readLocalFile(teamDir, indexKey))?.text ?? '';
  const line = `- [${name.replace(/[[\]]/g, '')}](${copyKey.split('/').map(encodeURIComponent).join('/')}) — ${label}, kept beside ${key} after a sync conflict`;
  await writeLocalFile(teamDir, indexKey, `${index}${index === '' || index.endsWith('\n') ? '' : '\n'}${line}\n`, null);
  return copyKey;
}
