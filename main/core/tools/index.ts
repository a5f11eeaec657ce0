import { z } from 'zod';
import type Anthropic from '@anthropic-ai/sdk';
import { readTool } from './read-tool.js';
import { globTool, grepTool } from './search-tools.js';
import { deleteTool, editTool, writeTool } from './write-tools.js';
export { DECLINED } from './write-tools.js';
import { toolError, type Tool, type ToolContext, type ToolOutput } from './tool-types.js';

/** The agent's tools (docs/architecture.md#the-agent), with Claude Code's names and input shapes. */
export { ReadState } from './read-state.js';
export { realResolve, realScope, resolveInScope, type PathScope, type RootKind } from './path-scope.js';
export { memoryTool, memoryToolWrite, MEMORY_TOOL_NAME, type MemoryWriteTools } from './memory-tool.js';
export { editedText } from './write-tools.js';
export type { BeforeMemoryWrite, PermissionAnswer, PermissionGate, Tool, ToolContext, ToolOutput } from './tool-types.js';

/** The fixed tool list, in a fixed order: part of the prompt-cache key, identical for forks. */
export function defaultTools(): Tool[] {
  return [readTool, writeTool, editTool, globTool, grepTool, deleteTool] as Tool[];
}

/** The API's `tools` parameter for a tool list (JSON Schema from the zod input). */
export function toApiTools(tools: Tool[]): Anthropic.ToolUnion[] {
  return tools.map((t) => {
    if (t.api) return t.api;
    const { $schema: _drop, ...schema } = z.toJSONSchema(t.inputSchema) as Record<string, unknown>;
    return { name: t.name, description: t.description, input_schema: schema as Anthropic.Tool.InputSchema };
  });
}

/** Validates input and runs one tool; never throws (an exception becomes an error result). */
export async function runTool(tool: Tool, input: unknown, ctx: ToolContext): Promise<ToolOutput> {
  const parsed = tool.inputSchema.safeParse(input);
  if (!parsed.success) {
    return toolError(`InputValidationError: ${tool.name} failed due to the following issue(s):\n${parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('\n')}`);
  }
  try {
    return await tool.run(parsed.data, ctx);
  } catch (e) {
    return toolError(`${tool.name} failed: ${(e as Error).message}`);
  }
}
