import type Anthropic from '@anthropic-ai/sdk';
import type { z } from 'zod';
import type { MemoryConfig } from '../../../common/config.js';
import type { PathScope } from './path-scope.js';
import type { ReadState } from './read-state.js';

/** What a tool returns; `isError` results reach the model as `tool_result` with `is_error: true`. */
export interface ToolOutput {
  content: string;
  isError?: boolean;
}

/** The user's answer to a write outside the memory folders (docs/architecture.md#the-agent). */
export type PermissionAnswer = 'allow_once' | 'allow_always' | 'deny';

/**
 * Asks the user about a write outside the memory folders; the prompt shows the path and a diff.
 * "Always" is remembered per project by the caller, which then answers without asking.
 */
export interface PermissionGate {
  requestPermission(request: { tool: string; path: string; diff: string; before?: string; after?: string; created?: boolean }): Promise<PermissionAnswer>;
}

/**
 * A hook before any memory-folder write (`content` null for a Delete): null lets it happen, a string
 * refuses it with that message, `{ held }` keeps it for the user's review — nothing is written and the
 * model is told `held`; `{ write }` writes that text instead (a new memory stamped with its conversation).
 */
export type MemoryWriteVerdict = string | null | { held: string } | { write: string };
export type BeforeMemoryWrite = (path: string, content: string | null) => Promise<MemoryWriteVerdict>;

/** Everything a tool call may touch; built once per session by the caller. */
export interface ToolContext {
  scope: PathScope;
  readState: ReadState;
  limits: MemoryConfig['agent'];
  permissionGate?: PermissionGate;
  beforeMemoryWrite?: BeforeMemoryWrite;
  /** The memory tool renamed a memory file (absolute paths), after both writes landed: what follows a file (its use count) moves too. */
  afterMemoryMove?: (from: string, to: string) => Promise<void>;
  signal?: AbortSignal;
}

/** One tool, with Claude Code's name and input shape. */
export interface Tool<I = unknown> {
  name: string;
  description: string;
  inputSchema: z.ZodType<I>;
  /** A tool the API defines itself (the memory tool): sent as this instead of name, description and schema. */
  api?: Anthropic.ToolUnion;
  /** Read-only tools may run concurrently with each other (docs/architecture.md#the-agent). */
  readOnly: boolean;
  run(input: I, ctx: ToolContext): Promise<ToolOutput>;
}

export const toolError = (content: string): ToolOutput => ({ content, isError: true });
