import { linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { AppFailure } from '../../../common/result.js';
import { writeFileAtomic } from '../fs/index.js';
import { scanText } from './scan-text.js';
import type { Finding, ScanOptions } from './secret-rule.js';

/**
 * "Not a secret": the user's record that one finding is a false alarm, kept in the vault as the rule and
 * a keyed hash of the value — never the value. A write or push whose only findings are allowed goes
 * through. Only the user adds entries (the chat card, the team panel, `strata scan-secrets
 * --not-a-secret`); no agent tool can reach this file (see `isAllowanceFile`).
 */
export const ALLOWANCES_FILE_NAME = 'secret-allowances.json';

export function allowancesFile(vaultRoot: string): string {
  return path.join(vaultRoot, '.strata', ALLOWANCES_FILE_NAME);
}

/** True for the allowance file of any vault: agent writes to it are refused whatever the scope says. */
export function isAllowanceFile(file: string): boolean {
  const parts = path.resolve(file).split(path.sep);
  return parts.at(-1)?.normalize('NFKC').toLowerCase() === ALLOWANCES_FILE_NAME && parts.at(-2)?.normalize('NFKC').toLowerCase() === '.strata';
}

export interface SecretAllowance {
  id: string;
  rule: string;
  /** HMAC-SHA256 of rule and value under the vault's own key: matches the value, cannot be read back. */
  fingerprint: string;
  /** Where the user marked it (`memory write`, `team push`, `strata scan-secrets`) and the file, for the Settings list. */
  where: string;
  createdAt: string;
}

interface AllowanceDocument {
  version: 1;
  /** Random per vault, so the same value has different fingerprints in different vaults. */
  key: string;
  allowances: SecretAllowance[];
}

export const fingerprintPattern = /^[a-f0-9]{64}$/;

/** The list on disk cannot be read: nothing is allowed and nothing is written over it until the user fixes it. */
export class DamagedAllowancesError extends Error {
  constructor(readonly file: string) {
    super(`the "Not a secret" list ${file} is damaged; fix or remove it (until then the scanner allows nothing)`);
    this.name = 'DamagedAllowancesError';
  }
}

function parse(text: string, file: string): AllowanceDocument {
  let doc: Partial<AllowanceDocument>;
  try {
    doc = JSON.parse(text) as Partial<AllowanceDocument>;
  } catch {
    throw new DamagedAllowancesError(file);
  }
  if (doc?.version !== 1 || typeof doc.key !== 'string' || !/^[a-f0-9]{64}$/.test(doc.key) || !Array.isArray(doc.allowances)) {
    throw new DamagedAllowancesError(file);
  }
  const allowances = doc.allowances.filter(
    (a): a is SecretAllowance =>
      typeof a?.id === 'string' && typeof a.rule === 'string' && typeof a.fingerprint === 'string' && fingerprintPattern.test(a.fingerprint) && typeof a.where === 'string' && typeof a.createdAt === 'string',
  );
  return { version: 1, key: doc.key, allowances };
}

/**
 * The allowance list of one vault. Reads the file again when it changed on disk (another window, the
 * CLI), so every scan sees the current list. A damaged file is an error, never silently replaced: the
 * user's allowances would be lost.
 */
export class SecretAllowanceStore {
  private doc: AllowanceDocument | null = null;
  private stamp = '';

  constructor(readonly file: string) {}

  static forVault(vaultRoot: string): SecretAllowanceStore {
    return new SecretAllowanceStore(allowancesFile(vaultRoot));
  }

  // `create`: a missing file is made (with its key) only when a fingerprint is needed, not to read the list.
  private current(create = true): AllowanceDocument {
    let stamp: string;
    try {
      const st = statSync(this.file);
      stamp = `${st.mtimeMs}:${st.size}:${st.ino}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      if (!create) return { version: 1, key: '', allowances: [] };
      this.createEmpty();
      return this.current();
    }
    if (this.doc === null || stamp !== this.stamp) {
      this.doc = parse(readFileSync(this.file, 'utf8'), this.file);
      this.stamp = stamp;
    }
    return this.doc;
  }

  /** The fingerprint of a value found by a rule, under this vault's key. */
  fingerprint(rule: string, value: string): string {
    return createHmac('sha256', Buffer.from(this.current().key, 'hex')).update(`${rule}\0${value}`).digest('hex');
  }

  isAllowed(rule: string, value: string): boolean {
    const doc = this.current(false);
    if (doc.allowances.length === 0) return false;
    const fingerprint = this.fingerprint(rule, value);
    return doc.allowances.some((a) => a.rule === rule && a.fingerprint === fingerprint);
  }

  list(): SecretAllowance[] {
    return this.current(false).allowances.map((a) => ({ ...a }));
  }

  /** Records a finding as not a secret (idempotent for the same rule and fingerprint). */
  async allow(input: { rule: string; fingerprint: string; where: string }, now = new Date()): Promise<SecretAllowance> {
    if (!fingerprintPattern.test(input.fingerprint)) throw new Error('a fingerprint is 64 hex characters');
    const doc = this.current();
    const existing = doc.allowances.find((a) => a.rule === input.rule && a.fingerprint === input.fingerprint);
    if (existing) return { ...existing };
    const entry: SecretAllowance = { id: randomUUID(), rule: input.rule, fingerprint: input.fingerprint, where: input.where.slice(0, 300), createdAt: now.toISOString() };
    await this.save({ ...doc, allowances: [...doc.allowances, entry] });
    return { ...entry };
  }

  /** Removes an allowance; false when there was none with that id. */
  async revoke(id: string): Promise<boolean> {
    const doc = this.current(false);
    const kept = doc.allowances.filter((a) => a.id !== id);
    if (kept.length === doc.allowances.length) return false;
    await this.save({ ...doc, allowances: kept });
    return true;
  }

  /**
   * `scanText` minus the allowed findings. With `fingerprints`, each remaining finding carries its
   * fingerprint, for a refusal the user can answer with "Not a secret".
   */
  scan(text: string, options: ScanOptions & { fingerprints?: boolean } = {}): Finding[] {
    const { fingerprints, ...scan } = options;
    // Fails closed: with a damaged list every finding stands (and carries no fingerprint to mark it by).
    try {
      this.current(false);
    } catch (error) {
      if (error instanceof DamagedAllowancesError) return scanText(text, scan);
      throw error;
    }
    return scanText(text, {
      ...scan,
      allowed: (rule, value) => this.isAllowed(rule, value),
      ...(fingerprints ? { fingerprint: (rule: string, value: string) => this.fingerprint(rule, value) } : {}),
    });
  }

  /**
   * Marks the one value `rule` finds at `line` (and `column`) of `text` as not a secret: the team panel and
   * the CLI name a finding by file, line, column and rule; the value never leaves this process. One mark
   * allows one value, never its neighbours: a decoy marked beside a real key leaves the key reported. Without
   * a column, a line where the rule finds two different values is refused rather than guessed. Returns
   * how many were recorded (0 when the rule finds nothing there, else 1).
   */
  async allowInText(text: string, finding: { rule: string; line: number; column?: number; where: string }): Promise<number> {
    const at = (f: Finding) => f.line === finding.line && (finding.column === undefined || f.column === finding.column);
    // Nothing there: no fingerprint is computed, so no key (and no file) is made for nothing.
    if (!this.scan(text, { rules: [finding.rule] }).some(at)) return 0;
    const fingerprints = new Set(this.scan(text, { fingerprints: true, rules: [finding.rule] }).flatMap((f) => (at(f) && f.fingerprint ? [f.fingerprint] : [])));
    if (fingerprints.size > 1) {
      throw new AppFailure('invalid_request', `rule ${finding.rule} finds ${fingerprints.size} values on line ${finding.line}: say which by its column`);
    }
    const [fingerprint] = fingerprints;
    if (fingerprint === undefined) return 0;
    await this.allow({ rule: finding.rule, fingerprint, where: finding.where });
    return 1;
  }

  // The key must be on disk before the first fingerprint leaves this object: another store (the IPC
  // handler, the CLI) has to compute the same fingerprint. Created whole or not at all (link fails when
  // another process created it first, and then its key wins).
  private createEmpty(): void {
    mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const doc: AllowanceDocument = { version: 1, key: randomBytes(32).toString('hex'), allowances: [] };
    const temp = `${this.file}.${randomBytes(6).toString('hex')}.tmp`;
    writeFileSync(temp, `${JSON.stringify(doc, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    try {
      linkSync(temp, this.file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(temp);
    }
  }

  private async save(doc: AllowanceDocument): Promise<void> {
    await writeFileAtomic(this.file, `${JSON.stringify(doc, null, 2)}\n`, { mode: 0o600, dirMode: 0o700 });
    // The next read picks the saved document up by its new stamp.
    this.doc = null;
  }
}
