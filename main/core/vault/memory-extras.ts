import type { MemoryMetaExtras } from '../../../common/domain/vault.js';
import { memoryDates, type ParsedMemory } from '../../../common/memory-file/index.js';

/** The line an import writes at the end of each memory (portability/import-naming.ts `provenanceLine`). */
const IMPORTED = /^Imported from (.+?) on \d{4}-\d{2}-\d{2}\b/m;

/**
 * What the vault list shows of a memory beyond name, description and type: where it came from and its
 * dates (docs/memory.md#provenance-and-use, #freshness). Undefined when it has none of them.
 */
export function memoryExtras(parsed: ParsedMemory): MemoryMetaExtras | undefined {
  const out: MemoryMetaExtras = {};
  if (parsed.originSessionId) out.originSessionId = parsed.originSessionId;
  const imported = IMPORTED.exec(parsed.body)?.[1];
  if (imported) out.importedFrom = imported.replace(/ \(.*\)$/, '');
  const dates = memoryDates(parsed.data);
  if (dates.validUntil) out.validUntil = dates.validUntil;
  if (dates.reviewOn) out.reviewOn = dates.reviewOn;
  return Object.keys(out).length > 0 ? out : undefined;
}
