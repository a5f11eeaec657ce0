import type { Frontmatter } from '../../../common/domain/vault.js';
import { memoryProblem, parseMemoryFile, type ParsedMemory } from '../../../common/memory-file/index.js';

/** A vault markdown file as the vault shows it: the one memory-file reading, seen as form fields. */
export interface ParsedMarkdown {
  /** The frontmatter's fields as text (empty when absent); null when the file has none or it gives none. */
  frontmatter: Frontmatter | null;
  /** What is wrong with it: malformed frontmatter, or for a memory none at all or no name/description. */
  frontmatterError: string | null;
  body: string;
  /** 1-based line of the body's first line in the file. */
  bodyLine: number;
  memory: ParsedMemory;
}

/** Reads a markdown file; `isMemory` asks for a memory's frontmatter (docs/memory.md#auto-memory), which others may lack. */
export function parseMarkdown(text: string, isMemory = false): ParsedMarkdown {
  const memory = parseMemoryFile(text);
  const usable = memory.hasFrontmatter && memory.frontmatterError === null;
  return {
    frontmatter: usable
      ? {
          name: memory.name ?? '',
          description: memory.description ?? '',
          type: memory.rawType ?? '',
          shape: memory.shape,
          originSessionId: memory.originSessionId,
        }
      : null,
    frontmatterError: isMemory ? memoryProblem(memory) : memory.frontmatterError,
    body: memory.body,
    bodyLine: memory.bodyLine,
    memory,
  };
}
