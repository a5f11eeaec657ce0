import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { INCOGNITO_OWNER_FILE, INCOGNITO_PREFIX } from './incognito-sweep.js';

/**
 * Incognito conversations of this process (docs/memory.md#pause-and-incognito): their transcripts live
 * in a private temp folder outside the vault, so the vault stays byte-identical, and are removed when
 * the app quits (`discardAll`) or the conversation is deleted. Nothing else of them is written.
 */
export class IncognitoSessions {
  private readonly ids = new Set<string>();
  private root: string | null = null;

  /** `tempDir`: where the private folder is made (the system's temp folder; tests pass their own). */
  constructor(private readonly tempDir: string = os.tmpdir()) {}

  has(sessionId: string): boolean {
    return this.ids.has(sessionId);
  }

  add(sessionId: string): void {
    this.ids.add(sessionId);
  }

  /** `<temp>/strata-incognito-XXXX/<projectSlug>` (or `.state` for session state), the root made (0700) on first use. */
  dirFor(projectSlug: string): string {
    if (!this.root) {
      const root = mkdtempSync(path.join(this.tempDir, INCOGNITO_PREFIX));
      // Names the process that owns the folder, so a later start can tell a crash's leftover (its owner is
      // gone) from a running Strata's folder, and from anything else that merely has a similar name.
      writeFileSync(path.join(root, INCOGNITO_OWNER_FILE), JSON.stringify({ pid: process.pid }), { mode: 0o600, flag: 'wx' });
      this.root = root;
    }
    return path.join(this.root, projectSlug);
  }

  /** Removes one conversation's transcript for good. */
  async discard(projectSlug: string, sessionId: string): Promise<void> {
    this.ids.delete(sessionId);
    if (this.root) await fs.rm(path.join(this.dirFor(projectSlug), `${sessionId}.jsonl`), { force: true });
  }

  /** Removes every incognito transcript (the app quits). Synchronous, so it also runs from an exit handler. */
  discardAll(): void {
    this.ids.clear();
    if (this.root) rmSync(this.root, { recursive: true, force: true });
    this.root = null;
  }
}
