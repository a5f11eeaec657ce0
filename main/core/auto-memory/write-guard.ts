import { formatFindingRef } from '../../../common/domain/secrets.js';
import { checkMemoryWrite, type SandboxResult } from './write-sandbox.js';

/**
 * The secret scanner as this module needs it (main/core/secrets `vaultSecretScan` fits): findings name
 * rule and line, never the value; a `span` says where the value sits, for redaction.
 */
export type SecretScan = (text: string) => { rule: string; line: number; fingerprint?: string; span?: [number, number] }[];

/**
 * One write into a memory folder. `content` is the whole text the file would hold afterwards — never
 * only the replacement of an Edit, since a value whose key name is already in the file (`password:
 * <TBD>` → the real password) is a secret only there — or, for a call not yet carried out, how to work
 * that text out from the file's real path. Absent for a Delete.
 */
export interface MemoryWriteRequest {
  path: string;
  content?: string | ((realPath: string) => Promise<string>);
}

/** Sandbox + secret scan for every write into a memory folder, whoever makes it (docs/memory.md#secret-scan). */
export interface MemoryWriteGuard {
  readonly memoryDirs: readonly string[];
  check(request: MemoryWriteRequest): Promise<SandboxResult>;
}

/**
 * Combines the sandbox over one or more memory folders (auto and team) with the secret scan. A finding
 * refuses the write with its rule and line — never the value — so the model writes it again without it.
 */
export function memoryWriteGuard(options: { memoryDirs: readonly string[]; scan: SecretScan }): MemoryWriteGuard {
  return {
    memoryDirs: options.memoryDirs,
    async check(request) {
      let first: SandboxResult | null = null;
      let allowed: Extract<SandboxResult, { ok: true }> | null = null;
      for (const dir of options.memoryDirs) {
        const result = await checkMemoryWrite(dir, request.path, request.content === undefined ? 'existing' : 'write');
        first ??= result;
        if (result.ok) {
          allowed = result;
          break;
        }
      }
      if (!allowed) return first ?? { ok: false, reason: 'no memory folder is open' };
      if (request.content === undefined) return allowed;
      const text = typeof request.content === 'string' ? request.content : await request.content(allowed.realPath);
      const findings = options.scan(text);
      if (findings.length === 0) return allowed;
      // The bracketed reference lets the chat card offer "Not a secret" for this finding; it is a keyed
      // hash, never the value, and only the user can act on it.
      const where = findings.map((f) => `rule ${f.rule} on line ${f.line}${f.fingerprint ? ` ${formatFindingRef(f.rule, f.fingerprint)}` : ''}`).join(', ');
      return { ok: false, reason: `${where} — leave the secret out and write the memory without it` };
    },
  };
}
