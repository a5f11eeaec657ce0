import type Anthropic from '@anthropic-ai/sdk';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { foldersDownTo, InstructionReader, loadInstructions, type InstructionFile, type LoadInstructionsOptions } from './claude-md-loader.js';

const isInside = (dir: string, p: string) => {
  const rel = path.relative(dir, p);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
};

/**
 * The instructions a Read brings in, as Claude Code attaches them to the tool result: the user's and
 * the project's `paths:` rules that match the file read, and for each folder between the project and
 * the file its `CLAUDE.md`, `.claude/CLAUDE.md`, `CLAUDE.local.md` and rules. Each file comes once per
 * conversation run, never when it was loaded at the start; files outside the project bring nothing.
 */
export class InstructionsOnRead {
  private known: Promise<Set<string>> | null = null;

  constructor(private readonly options: LoadInstructionsOptions) {}

  async forFile(file: string): Promise<InstructionFile[]> {
    const known = await (this.known ??= this.startFiles());
    const resolvedProject = path.resolve(this.options.projectDir);
    const projectDir = await fs.realpath(resolvedProject).catch(() => resolvedProject);
    const target = await fs.realpath(path.resolve(projectDir, file)).catch(() => path.resolve(projectDir, file));
    if (!isInside(projectDir, target)) return [];
    const reader = new InstructionReader(this.options, projectDir, new Set(known));
    await reader.loadRules(path.join(this.options.vaultRoot, 'rules'), 'user', projectDir, target);
    for (const dir of foldersDownTo(path.dirname(target)).filter((d) => isInside(projectDir, d))) {
      await reader.load(path.join(dir, 'CLAUDE.md'), 'project');
      await reader.load(path.join(dir, '.claude', 'CLAUDE.md'), 'project');
      await reader.load(path.join(dir, 'CLAUDE.local.md'), 'local');
      await reader.loadRules(path.join(dir, '.claude', 'rules'), 'project', dir, target);
    }
    for (const dir of foldersDownTo(projectDir)) await reader.loadRules(path.join(dir, '.claude', 'rules'), 'project', dir, target);
    for (const f of reader.files) known.add(f.path);
    return reader.files;
  }

  /** What one tool call's result gets appended: the instructions a successful Read brings in, as text. */
  async forToolResult(call: Anthropic.ToolUseBlockParam, result: Anthropic.ToolResultBlockParam): Promise<string[]> {
    const file = (call.input as { file_path?: unknown } | null)?.file_path;
    if (call.name !== 'Read' || typeof file !== 'string' || result.is_error) return [];
    return (await this.forFile(file)).map(attachedInstructionText);
  }

  private async startFiles(): Promise<Set<string>> {
    const start = await loadInstructions(this.options);
    return new Set(start.files.map((f) => f.path));
  }
}

/** One attached file as the model sees it after the tool result (Claude Code's wording). */
export const attachedInstructionText = (f: InstructionFile): string => `<system-reminder>\nContents of ${f.path}:\n\n${f.content}\n</system-reminder>`;
