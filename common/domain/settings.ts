import { z } from 'zod';
import { memoryConfigOverrideSchema } from '../config.js';

/** Per-project switches (SPEC §4/§5): each memory engine can be turned off for one project. */
export const projectSettingsSchema = z.object({
  autoMemory: z.boolean().default(true),
  extraction: z.boolean().default(true),
  teamSync: z.boolean().default(true),
  reviewMode: z.boolean().default(false),
  teamServerUrl: z.string().url().nullable().default(null),
  teamRepo: z.string().regex(/^[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+$/).nullable().default(null),
});

export type ProjectSettings = z.infer<typeof projectSettingsSchema>;

/**
 * Vault settings, persisted in `<vault>/.strata/settings.json`. Secrets never live here: the API key and
 * team tokens are in the OS keychain.
 */
export const settingsSchema = z.object({
  theme: z.enum(['system', 'light', 'dark']).default('system'),
  model: z.string().min(1).default('claude-sonnet-4-5'),
  smallModel: z.string().min(1).default('claude-haiku-4-5'),
  baseUrl: z.string().url().nullable().default(null),
  teamServerUrl: z.string().url().nullable().default(null),
  projects: z.record(z.string(), projectSettingsSchema).default({}),
  memory: memoryConfigOverrideSchema.default({}),
});

export type Settings = z.infer<typeof settingsSchema>;

/** What `settings:set` accepts: any subset of the top-level keys. */
export const settingsPatchSchema = settingsSchema.partial().strict();
export type SettingsPatch = z.input<typeof settingsPatchSchema>;

export const defaultSettings = (): Settings => settingsSchema.parse({});
