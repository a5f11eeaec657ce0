import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  formatEtag,
  isValidRepo,
  parseEtagList,
  putBodySchema,
  strongMatch,
  type PutBody,
  utf8Length,
  validateTeamMemoryKey,
  weakMatch,
} from '../../common/team-memory/index.js';
import type { Caller } from '../auth/bearer-auth.js';
import type { MemoryStore, RepoSnapshot } from '../storage/memory-store.js';
import type { ServerLimits } from '../server-options.js';
import { ApiError, sendApiError, withApiErrors } from './api-error.js';
import { authenticateRequest, type RequestAuthDeps } from './authenticate-request.js';
import { describePutOutcome } from './put-outcome.js';

/** What the team-memory routes need. */
export interface TeamMemoryDeps extends RequestAuthDeps {
  memory: MemoryStore;
  limits: ServerLimits;
}

type Admitted = { caller: Caller; repo: string };

/** Token and rate limit, repo name, membership, in that order (401, 429, 400, 403). */
async function admit(deps: TeamMemoryDeps, request: FastifyRequest): Promise<Admitted> {
  const caller = await authenticateRequest(deps, request);
  const repo = (request.query as Record<string, unknown>).repo;
  if (typeof repo !== 'string' || !isValidRepo(repo)) {
    throw new ApiError(400, 'invalid_repo', 'the repo query parameter must be owner/name (letters, digits, . _ -)');
  }
  // 403 before any lookup of the repository, so a non-member cannot learn whether it exists.
  if (!(await deps.auth.isMember(caller.userId, repo))) {
    throw new ApiError(403, 'forbidden', `you are not a member of ${repo}`);
  }
  return { caller, repo };
}

function body(repo: string, snapshot: RepoSnapshot, withEntries: boolean) {
  const entryChecksums = Object.fromEntries([...snapshot.entries].map(([k, e]) => [k, e.checksum]));
  const tombstones = Object.fromEntries(
    [...snapshot.tombstones].map(([k, t]) => [k, { deletedAt: new Date(t.deletedAt).toISOString(), checksum: t.checksum }]),
  );
  const content = withEntries
    ? { entries: Object.fromEntries([...snapshot.entries].map(([k, e]) => [k, e.content ?? ''])), entryChecksums, tombstones }
    : { entryChecksums, tombstones };
  return { repo, version: snapshot.version, lastModified: new Date(snapshot.lastModified).toISOString(), checksum: snapshot.checksum, content };
}

/**
 * A repository that grew past the byte cap before the cap existed (or was lowered) is not sent whole:
 * its answer could be too large to build (a JSON string past V8's length limit was a 500). The cap
 * is what this server promises to serve; the hashes view and deletions still work, so it can be
 * brought back under (docs/sync-protocol.md#limits).
 */
async function refuseOverCap(deps: TeamMemoryDeps, repo: string): Promise<void> {
  const bytes = await deps.memory.contentBytes(repo);
  const max = deps.limits.maxRepoBytes;
  if (bytes <= max) return;
  throw new ApiError(
    413,
    'team_memory_repo_too_large',
    `${repo} holds ${bytes} bytes of memory, more than this server serves whole (${max}); ` +
      'the administrator can raise --max-repo-bytes, or entries can be deleted (PUT null with the ETag of ?view=hashes)',
    { max_repo_bytes: max, repo_bytes: bytes },
  );
}

async function handleGet(deps: TeamMemoryDeps, { repo }: Admitted, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const view = (request.query as Record<string, unknown>).view;
  if (view !== undefined && view !== 'hashes') throw new ApiError(400, 'invalid_request', 'view must be hashes or absent');
  const head = await deps.memory.head(repo);
  if (!head) throw new ApiError(404, 'not_found', `${repo} has no team memory yet`);
  reply.header('cache-control', 'private, no-cache');
  // RFC 9110 §13.2.2: If-Match first, strong comparison; false means the GET is not performed.
  const ifMatch = parseEtagList(request.headers['if-match']);
  if (ifMatch !== null && !strongMatch(ifMatch, head.checksum)) {
    throw new ApiError(412, 'precondition_failed', `${repo} no longer matches your If-Match`, {}, { etag: formatEtag(head.checksum) });
  }
  // RFC 9110 §13.1.2: weak comparison; a match is 304 with the validator and no body.
  const inm = parseEtagList(request.headers['if-none-match']);
  if (inm !== null && weakMatch(inm, head.checksum)) {
    return reply.code(304).header('etag', formatEtag(head.checksum)).send();
  }
  if (view !== 'hashes') await refuseOverCap(deps, repo);
  const snapshot = await deps.memory.snapshot(repo, view !== 'hashes', deps.clock.now(), deps.limits.tombstoneMs);
  if (!snapshot) throw new ApiError(404, 'not_found', `${repo} has no team memory yet`);
  return reply.header('etag', formatEtag(snapshot.checksum)).send(body(repo, snapshot, view !== 'hashes'));
}

function parsePutBody(raw: unknown, limits: ServerLimits): [string, string | null][] {
  let json: unknown;
  try {
    json = JSON.parse(typeof raw === 'string' ? raw : '');
  } catch (error) {
    throw new ApiError(400, 'invalid_json', `the body is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = putBodySchema.safeParse(json);
  if (!parsed.success) {
    const unknown = parsed.error.issues.flatMap((i) => (i.code === 'unrecognized_keys' ? i.keys : []));
    if (unknown.length > 0) {
      throw new ApiError(400, 'invalid_request', `unknown field(s): ${unknown.join(', ')}`, { unknown_fields: unknown });
    }
    throw new ApiError(400, 'invalid_request', 'the body must be {"entries": {key: text or null}}');
  }
  // The keys of the JSON as sent: zod's output object has lost a `__proto__` key, which must be refused, not dropped.
  const changes = Object.entries((json as PutBody).entries);
  for (const [key, text] of changes) {
    const check = validateTeamMemoryKey(key);
    if (!check.ok) throw new ApiError(400, 'invalid_key', `invalid key ${JSON.stringify(key)}: ${check.reason}`, { key, reason: check.reason });
    if (text === null) continue;
    const bytes = utf8Length(text);
    if (bytes > limits.maxFileBytes) {
      throw new ApiError(413, 'team_memory_file_too_large', `${key} is ${bytes} bytes; the limit is ${limits.maxFileBytes}`, {
        key,
        max_file_bytes: limits.maxFileBytes,
        received_bytes: bytes,
      });
    }
  }
  return changes;
}

/** `GET /api/team_memory/entry?repo=…&key=…`: who last changed one entry and when (the conflict resolver's "who and when"). */
async function handleEntry(deps: TeamMemoryDeps, { repo }: Admitted, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const key = (request.query as Record<string, unknown>).key;
  if (typeof key !== 'string' || !validateTeamMemoryKey(key).ok) throw new ApiError(400, 'invalid_key', 'the key query parameter must be a valid key');
  const info = await deps.memory.entryInfo(repo, key);
  if (!info) throw new ApiError(404, 'not_found', `${repo} has no entry ${JSON.stringify(key)}`);
  return reply.header('cache-control', 'private, no-cache').send({
    key,
    checksum: info.checksum,
    deleted: info.deleted,
    updatedBy: info.updatedBy,
    updatedAt: info.updatedAt === null ? null : new Date(info.updatedAt).toISOString(),
  });
}

async function handlePut(deps: TeamMemoryDeps, { repo, caller }: Admitted, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const changes = parsePutBody(request.body, deps.limits);
  const outcome = await deps.memory.put(repo, {
    changes,
    ifMatch: parseEtagList(request.headers['if-match']),
    ifNoneMatch: parseEtagList(request.headers['if-none-match']),
    now: deps.clock.now(),
    author: caller.username,
    maxEntries: deps.limits.maxEntries,
    tombstoneMs: deps.limits.tombstoneMs,
    maxTombstones: deps.limits.maxTombstones,
    maxRepoBytes: deps.limits.maxRepoBytes,
  });
  if (outcome.kind !== 'ok') throw describePutOutcome(repo, outcome);
  return reply.header('etag', formatEtag(outcome.checksum)).header('cache-control', 'no-store').send({ checksum: outcome.checksum, version: outcome.version });
}

/** `GET`/`PUT /api/team_memory` exactly as docs/sync-protocol.md; other methods are 405. */
export function registerTeamMemoryRoutes(app: FastifyInstance, deps: TeamMemoryDeps): void {
  const admitted = new WeakMap<FastifyRequest, Admitted>();
  // Admission runs before the body is read, so a caller without a valid token, over its rate limit or
  // not a member gets its 401, 429 or 403 without the server buffering (or judging) a body it sent.
  const onRequest = withApiErrors(async (request) => {
    admitted.set(request, await admit(deps, request));
  });
  const guard = (handler: typeof handleGet) =>
    withApiErrors((request, reply) => handler(deps, admitted.get(request)!, request, reply));
  app.get('/api/team_memory', { onRequest }, guard(handleGet));
  app.put('/api/team_memory', { onRequest }, guard(handlePut));
  app.get('/api/team_memory/entry', { onRequest }, guard(handleEntry));
  app.route({
    method: ['POST', 'DELETE', 'PATCH'],
    url: '/api/team_memory',
    handler: async (_request, reply) =>
      sendApiError(reply, new ApiError(405, 'method_not_allowed', 'use GET or PUT', {}, { allow: 'GET, HEAD, PUT' })),
  });
}
