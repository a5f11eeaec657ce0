import { formatFindingRef } from '../../../common/domain/secrets.js';
import { checkMemoryWrite, type SandboxResult } from './write-sandbox.js';

/** The secret scanner as this module needs it (main/core/secrets `scanText` fits): findings name rule and line only. */
export type SecretScan = (text: string) => { rule: string; line: number; fingerprint?: string }[];

/** One agent write into a memory folder: `content` is the text to be written (Write) or inserted (Edit); absent for Delete. */
export interface MemoryWriteRequest {
  path: string;
  content?: string;
}

/** Sandbox + secret scan for every agent write into a memory folder (docs/memory.md#auto-memory). */
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
      let allowed: SandboxResult | null = null;
      for (const dir of options.memoryDirs) {
        const result = await checkMemoryWrite(dir, request.path, request.content === undefined ? 'existing' : 'write');
        first ??= result;
        if (result.ok) {
          allowed = result;
          break;
        }
      }
      if (!allowed) return first ?? { ok: false, reason: 'no memory folder is open' };
      if (request.content !== undefined) {
        const findings = options.scan(request.content);
        if (findings.length > 0) {
          // The bracketed reference lets the chat card offer "Not a secret" for this finding; it is a keyed
          // hash, never the value, and only the user can act on it.
          const where = findings.map((f) => `rule ${f.rule} on line ${f.line}${f.fingerprint ? ` ${formatFindingRef(f.rule, f.fingerprint)}` : ''}`).join(', ');
          return { ok: false, reason: `${where} — leave the secret out and write the memory without it` };
        }
      }
      return allowed;
    },
  };
}
