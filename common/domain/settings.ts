import { z } from 'zod';
import { memoryConfigOverrideSchema } from '../config.js';
import { memoryShapes } from '../memory-file/memory-types.js';

/**
 * A server URL Strata sends requests to (the Messages API, a team server): http or https only, so no
 * setting can point a request at `file:`, `data:` or another scheme.
 */
const serverUrl = z
  .string()
  .url()
  .refine((u) => /^https?:$/.test(new URL(u).protocol), 'only http and https URLs');

/** Per-project switches (docs/memory.md#auto-memory/§5): each memory engine can be turned off for one project. */
export const projectSettingsSchema = z.object({
  autoMemory: z.boolean().default(true),
  /**
   * Pause memory (docs/memory.md#pause-and-incognito): nothing new is saved — the agent's memory writes
   * are refused, no background extraction or tidy-up runs; what is saved is still read.
   */
  memoryPaused: z.boolean().default(false),
  extraction: z.boolean().default(true),
  teamSync: z.boolean().default(true),
  reviewMode: z.boolean().default(false),
  /** Background memory consolidation (docs/memory-upkeep.md): proposes one changeset for the Inbox. */
  consolidation: z.boolean().default(true),
  /** Apply a consolidation changeset without asking (off: it waits in the Inbox). */
  consolidationAutoApply: z.boolean().default(false),
  /** "Always allow" answered to a write prompt: the agent writes project files without asking. */
  alwaysAllowWrites: z.boolean().default(false),
  /** Real paths outside the project that this project's CLAUDE.md may include (docs/memory.md#instructions one-time approval). */
  approvedIncludes: z.array(z.string()).default([]),
  teamServerUrl: serverUrl.nullable().default(null),
  teamRepo: z.string().regex(/^[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+$/).nullable().default(null),
});

export type ProjectSettings = z.infer<typeof projectSettingsSchema>;

/** The fields without defaults: a patch must carry only what the user changed. */
const fields = {
  theme: z.enum(['system', 'light', 'dark']),
  model: z.string().trim().min(1),
  smallModel: z.string().trim().min(1),
  baseUrl: serverUrl.nullable(),
  teamServerUrl: serverUrl.nullable(),
  projects: z.record(z.string(), projectSettingsSchema),
  memory: memoryConfigOverrideSchema,
  /** How the agent writes memory: Claude Code's Write/Edit into the folder, or the API's memory tool. */
  memoryWrites: z.enum(['claude-code', 'memory-tool']),
  /** The API clears old tool results past a threshold (context editing). */
  contextEditing: z.boolean(),
  /** The API compacts a long conversation itself; Strata's notes compaction stays the offline path. */
  serverCompaction: z.boolean(),
  /** Which Claude Code's memory shape the agent and the vault write (both shapes are always read). */
  memoryShape: z.enum(memoryShapes),
};

/**
 * Vault settings, persisted in `<vault>/.strata/settings.json`. Secrets never live here: the API key and
 * team tokens are in the OS keychain.
 */
export const settingsSchema = z.object({
  theme: fields.theme.default('system'),
  model: fields.model.default('claude-sonnet-4-5'),
  smallModel: fields.smallModel.default('claude-haiku-4-5'),
  baseUrl: fields.baseUrl.default(null),
  teamServerUrl: fields.teamServerUrl.default(null),
  projects: fields.projects.default({}),
  memory: fields.memory.default({}),
  memoryWrites: fields.memoryWrites.default('claude-code'),
  contextEditing: fields.contextEditing.default(true),
  serverCompaction: fields.serverCompaction.default(false),
  // The 2.1.88 shape (top-level `type`) is read by both Claude Code versions; the newest reads it too.
  memoryShape: fields.memoryShape.default('2.1.88'),
});

export type Settings = z.infer<typeof settingsSchema>;

/**
 * What `settings:set` accepts: any subset of the top-level keys. Built from the default-free fields,
 * since zod fills defaults even inside `.partial()` and a patch would then reset untouched keys.
 */
export const settingsPatchSchema = z.object(fields).partial().strict();
export type SettingsPatch = z.input<typeof settingsPatchSchema>;

export const defaultSettings = (): Settings => settingsSchema.parse({});
