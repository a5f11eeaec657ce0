import { z } from 'zod';

/**
 * The team-memory wire protocol of docs/sync-protocol.md, as zod schemas shared by the server (which parses PUT
 * bodies with them) and the desktop client (which parses responses with them).
 */

const checksumSchema = z.string().regex(/^sha256:[0-9a-f]{64}$/);

/** `PUT` body: upserts the listed keys, `null` deletes. Unknown fields are refused. */
export const putBodySchema = z.strictObject({
  entries: z.record(z.string(), z.string().nullable()),
});
export type PutBody = z.infer<typeof putBodySchema>;

/** A deletion kept for 30 days so other clients learn of it. */
export const tombstoneSchema = z.strictObject({
  deletedAt: z.string(),
  checksum: checksumSchema,
});
export type Tombstone = z.infer<typeof tombstoneSchema>;

/** `GET` 200 body. */
export const getResponseSchema = z.strictObject({
  repo: z.string(),
  version: z.number().int().nonnegative(),
  lastModified: z.string(),
  checksum: checksumSchema,
  content: z.strictObject({
    entries: z.record(z.string(), z.string()),
    entryChecksums: z.record(z.string(), checksumSchema),
    tombstones: z.record(z.string(), tombstoneSchema),
  }),
});
export type GetResponse = z.infer<typeof getResponseSchema>;

/** `GET …&view=hashes` 200 body: the same without `entries`. */
export const hashesResponseSchema = z.strictObject({
  repo: z.string(),
  version: z.number().int().nonnegative(),
  lastModified: z.string(),
  checksum: checksumSchema,
  content: z.strictObject({
    entryChecksums: z.record(z.string(), checksumSchema),
    tombstones: z.record(z.string(), tombstoneSchema),
  }),
});
export type HashesResponse = z.infer<typeof hashesResponseSchema>;

/** `GET /api/team_memory/entry` 200 body: who last changed one entry, and when (null before authors were kept). */
export const entryInfoSchema = z.object({
  key: z.string(),
  checksum: checksumSchema,
  deleted: z.boolean(),
  updatedBy: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type EntryInfo = z.infer<typeof entryInfoSchema>;

/** `PUT` 200 body. */
export const putResponseSchema = z.strictObject({
  checksum: checksumSchema,
  version: z.number().int().positive(),
});
export type PutResponse = z.infer<typeof putResponseSchema>;

/** The `error_code`s a server answers with (every 4xx, docs/sync-protocol.md; `internal` for a 5xx). */
export const teamErrorCodes = [
  'invalid_request',
  'invalid_repo',
  'invalid_key',
  'invalid_json',
  'unsupported_media_type',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'precondition_failed',
  'precondition_required',
  'body_too_large',
  'team_memory_file_too_large',
  'team_memory_too_many_entries',
  'team_memory_repo_too_large',
  'rate_limited',
  'internal',
] as const;
export type TeamErrorCode = (typeof teamErrorCodes)[number];

/** Every 4xx body: `{error:{message, details:{error_code, …}}}`. Clients accept codes they do not know. */
export const errorBodySchema = z.object({
  error: z.object({
    message: z.string(),
    details: z.looseObject({ error_code: z.string() }),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** The structured 413 that teaches a client the server's entry limit. */
export const tooManyEntriesDetailsSchema = z.object({
  error_code: z.literal('team_memory_too_many_entries'),
  max_entries: z.number().int().positive(),
  received_entries: z.number().int().positive(),
});
