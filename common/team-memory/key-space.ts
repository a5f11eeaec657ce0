/**
 * The keys of one repository as a case-insensitive, normalizing file system sees them (APFS, NTFS):
 * `A.md` and `a.md`, or the NFC and NFD spellings of `é.md`, are one file there, and `x.md` cannot be
 * both a file and the folder of `x.md/y.md` anywhere. The server refuses a key that would collide with
 * one it holds, and the client leaves such a local file out of the push, so no client is ever asked to
 * write two files into one name (docs/sync-protocol.md key rules).
 */

/** The form under which two keys name the same file on macOS and Windows. */
export function foldKey(key: string): string {
  return key.normalize('NFC').toLowerCase();
}

/** Folder prefixes of a key: `a/b/c.md` → `a`, `a/b`. */
function folders(key: string): string[] {
  const parts = key.split('/');
  return parts.slice(0, -1).map((_part, i) => parts.slice(0, i + 1).join('/'));
}

export class KeySpace {
  /** Folded file key → the key as spelled. */
  private readonly files = new Map<string, string>();
  /** Folded folder → the folder as spelled and how many keys lie under it. */
  private readonly dirs = new Map<string, { spelled: string; count: number }>();

  constructor(keys: Iterable<string> = []) {
    for (const key of keys) this.add(key);
  }

  /** Why `key` cannot live beside the keys held (a clause like the validator's), or null. */
  problem(key: string): string | null {
    const folded = foldKey(key);
    const twin = this.files.get(folded);
    if (twin !== undefined && twin !== key) return `it differs from the existing ${JSON.stringify(twin)} only in case or Unicode form, and both would be one file on macOS and Windows`;
    const dir = this.dirs.get(folded);
    if (dir) return `it is the folder ${JSON.stringify(dir.spelled)} of other keys, and cannot also be a file`;
    for (const folder of folders(key)) {
      const foldedFolder = foldKey(folder);
      const file = this.files.get(foldedFolder);
      if (file !== undefined) return `its folder ${JSON.stringify(folder)} is the existing file ${JSON.stringify(file)}`;
      const known = this.dirs.get(foldedFolder);
      if (known && known.spelled !== folder) return `its folder ${JSON.stringify(folder)} differs from the existing folder ${JSON.stringify(known.spelled)} only in case or Unicode form`;
    }
    return null;
  }

  has(key: string): boolean {
    return this.files.get(foldKey(key)) === key;
  }

  /** Adds a key (callers check `problem` first; adding a colliding key keeps the first spelling). */
  add(key: string): void {
    const folded = foldKey(key);
    if (this.files.has(folded)) return;
    this.files.set(folded, key);
    for (const folder of folders(key)) {
      const known = this.dirs.get(foldKey(folder));
      if (known) known.count++;
      else this.dirs.set(foldKey(folder), { spelled: folder, count: 1 });
    }
  }

  delete(key: string): void {
    const folded = foldKey(key);
    if (this.files.get(folded) !== key) return;
    this.files.delete(folded);
    for (const folder of folders(key)) {
      const known = this.dirs.get(foldKey(folder));
      if (known && --known.count === 0) this.dirs.delete(foldKey(folder));
    }
  }
}
