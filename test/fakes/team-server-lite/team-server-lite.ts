import http from 'node:http';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import {
  entryChecksum,
  formatEtag,
  isValidRepo,
  parseEtagList,
  putBodySchema,
  repositoryChecksum,
  strongMatch,
  utf8Length,
  validateTeamMemoryKey,
  weakMatch,
} from '../../../common/team-memory/index.js';

/**
 * A minimal loopback team server implementing SPEC §5's data API faithfully, for the sync tests until
 * `server/` exposes a start function. Test hooks: `snapshot`/`restore` (a server restored from a
 * backup) and `wipe` (a server that lost the repository).
 */
export interface RepoData {
  version: number;
  lastModified: string;
  entries: Map<string, string>;
  tombstones: Map<string, { deletedAt: string; checksum: string }>;
}

const sha = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
const MAX_BODY = 1024 * 1024;
const MAX_ENTRY = 250_000;

export interface TeamServerLite {
  url: string;
  /** Registers a bearer token for a user who is a member of `repos`. */
  addUser(token: string, repos: string[]): void;
  snapshot(repo: string): RepoData | null;
  restore(repo: string, data: RepoData | null): void;
  close(): Promise<void>;
}

function checksumOf(data: RepoData): string {
  return repositoryChecksum([...data.entries].map(([k, v]) => [k, entryChecksum(v, sha)] as [string, string]), sha);
}

function clone(data: RepoData): RepoData {
  return { version: data.version, lastModified: data.lastModified, entries: new Map(data.entries), tombstones: new Map(data.tombstones) };
}

function send(res: http.ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers });
  res.end(body === undefined ? undefined : JSON.stringify(body));
}

function fail(res: http.ServerResponse, status: number, code: string, message: string, details: Record<string, unknown> = {}): void {
  send(res, status, { error: { message, details: { error_code: code, ...details } } });
}

export async function startTeamServerLite(options: { maxEntries?: number; now?: () => number } = {}): Promise<TeamServerLite> {
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  const repos = new Map<string, RepoData>();
  const users = new Map<string, Set<string>>();

  const body = (data: RepoData, withEntries: boolean, repo: string) => {
    const sums = Object.fromEntries([...data.entries].map(([k, v]) => [k, entryChecksum(v, sha)]));
    const cutoff = now() - 30 * 86_400_000;
    for (const [k, t] of data.tombstones) if (Date.parse(t.deletedAt) < cutoff) data.tombstones.delete(k);
    return {
      repo,
      version: data.version,
      lastModified: data.lastModified,
      checksum: checksumOf(data),
      content: {
        ...(withEntries ? { entries: Object.fromEntries(data.entries) } : {}),
        entryChecksums: sums,
        tombstones: Object.fromEntries(data.tombstones),
      },
    };
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/api/team_memory') return fail(res, 404, 'not_found', 'no such route');
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const member = token ? users.get(token) : undefined;
    if (!member) return fail(res, 401, 'unauthorized', 'the bearer token is not valid');
    const repo = url.searchParams.get('repo') ?? '';
    if (!isValidRepo(repo)) return fail(res, 400, 'invalid_repo', 'repo must be owner/name');
    if (!member.has(repo)) return fail(res, 403, 'forbidden', `you are not a member of ${repo}`);
    const data = repos.get(repo);
    if (req.method === 'GET') {
      if (!data) return fail(res, 404, 'not_found', `${repo} has no team memory yet`);
      const sum = checksumOf(data);
      const inm = parseEtagList(req.headers['if-none-match']);
      if (inm && weakMatch(inm, sum)) return send(res, 304, undefined, { etag: formatEtag(sum) });
      return send(res, 200, body(data, url.searchParams.get('view') !== 'hashes', repo), { etag: formatEtag(sum) });
    }
    if (req.method !== 'PUT') return fail(res, 405, 'method_not_allowed', 'GET or PUT');
    if (raw.byteLength > MAX_BODY) return fail(res, 413, 'body_too_large', 'the body is over 1 MiB');
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      return fail(res, 400, 'invalid_json', 'the body is not JSON');
    }
    const put = putBodySchema.safeParse(parsed);
    if (!put.success) return fail(res, 400, 'invalid_request', 'the body must be {entries:{key: text|null}}');
    for (const [key, value] of Object.entries(put.data.entries)) {
      const check = validateTeamMemoryKey(key);
      if (!check.ok) return fail(res, 400, 'invalid_key', `key ${check.reason}`);
      if (value !== null && utf8Length(value) > MAX_ENTRY) return fail(res, 413, 'team_memory_file_too_large', `${key} is over ${MAX_ENTRY} bytes`);
    }
    const ifMatch = parseEtagList(req.headers['if-match']);
    if (ifMatch === null && data) return fail(res, 428, 'precondition_required', 'send If-Match with the current ETag');
    if (ifMatch !== null && (!data || !strongMatch(ifMatch, checksumOf(data)))) {
      return fail(res, 412, 'precondition_failed', 'the team memory changed; fetch it and retry');
    }
    const next = data ? clone(data) : { version: 0, lastModified: new Date(now()).toISOString(), entries: new Map(), tombstones: new Map() };
    for (const [key, value] of Object.entries(put.data.entries)) {
      if (value === null) {
        const old = next.entries.get(key);
        if (old !== undefined) next.tombstones.set(key, { deletedAt: new Date(now()).toISOString(), checksum: entryChecksum(old, sha) });
        next.entries.delete(key);
      } else {
        next.entries.set(key, value);
        next.tombstones.delete(key);
      }
    }
    if (next.entries.size > maxEntries) {
      return fail(res, 413, 'team_memory_too_many_entries', `at most ${maxEntries} entries`, { max_entries: maxEntries, received_entries: next.entries.size });
    }
    next.version += 1;
    next.lastModified = new Date(now()).toISOString();
    repos.set(repo, next);
    const sum = checksumOf(next);
    send(res, 200, { checksum: sum, version: next.version }, { etag: formatEtag(sum) });
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks)).catch((error: Error) => fail(res, 500, 'internal', error.message));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    addUser(token, list) {
      users.set(token, new Set(list));
    },
    snapshot: (repo) => {
      const data = repos.get(repo);
      return data ? clone(data) : null;
    },
    restore(repo, data) {
      if (data) repos.set(repo, clone(data));
      else repos.delete(repo);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
