import {
  errorBodySchema,
  getResponseSchema,
  hashesResponseSchema,
  putResponseSchema,
  tooManyEntriesDetailsSchema,
} from '../../../common/team-memory/index.js';

/**
 * The client side of the team-memory protocol (SPEC §5), parsed with the zod schemas shared with the
 * server. Every answer is a value: the engine decides what a 412, a 413 or a dropped connection means.
 */

/** A server snapshot, full or hashes-only. */
export interface Snapshot {
  version: number;
  lastModified: string;
  checksum: string;
  /** Absent for `?view=hashes`. */
  entries?: Record<string, string>;
  entryChecksums: Record<string, string>;
  tombstones: Record<string, { deletedAt: string }>;
}

/** Anything but a success: network failure, HTTP error with the server's code, or a malformed answer. */
export type ApiFailure =
  | { kind: 'network'; message: string }
  | { kind: 'http'; status: number; code: string; message: string; retryAfterMs?: number; maxEntries?: number; key?: string }
  | { kind: 'malformed'; message: string };

export type GetResult = { kind: 'snapshot'; snapshot: Snapshot } | { kind: 'not-modified' } | { kind: 'not-found' } | ApiFailure;
export type PutResult = { kind: 'ok'; checksum: string; version: number | null } | ApiFailure;

export interface TeamApiOptions {
  serverUrl: string;
  repo: string;
  /** Injected so tests can drop responses and count bytes; defaults to global fetch. */
  fetch?: typeof fetch;
  /** The bearer token (refreshed by the OAuth client when needed); null = not signed in. */
  getToken: () => Promise<string | null>;
}

/** Strips `W/` and quotes: the body `checksum` is the truth, the header a fallback (RFC 9110 §8.8.3). */
export function bareEtag(value: string | null | undefined): string | null {
  if (!value) return null;
  return value.replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
}

export class TeamApi {
  private readonly fetchImpl: typeof fetch;
  private readonly url: string;

  constructor(private readonly options: TeamApiOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.url = `${options.serverUrl.replace(/\/+$/, '')}/api/team_memory?repo=${encodeURIComponent(options.repo)}`;
  }

  /** Full snapshot; `ifNoneMatch` (bare checksum) → `not-modified` when unchanged (RFC 9110 §13.1.2). */
  get(ifNoneMatch: string | null): Promise<GetResult> {
    return this.getAt(this.url, ifNoneMatch, false);
  }

  /** `?view=hashes`: the same snapshot without `entries`. */
  hashes(): Promise<GetResult> {
    return this.getAt(`${this.url}&view=hashes`, null, true);
  }

  /** Upserts `entries` (null = delete); `ifMatch` null only for a repository with no memory yet. */
  async put(entries: Record<string, string | null>, ifMatch: string | null): Promise<PutResult> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (ifMatch) headers['if-match'] = `"${ifMatch}"`;
    const response = await this.request('PUT', this.url, headers, JSON.stringify({ entries }));
    if ('kind' in response) return response;
    if (response.status !== 200) return this.failure(response);
    const parsed = putResponseSchema.safeParse(await response.json().catch(() => null));
    const etag = bareEtag(response.headers.get('etag'));
    if (!parsed.success && !etag) return { kind: 'malformed', message: 'PUT answer has no checksum' };
    return { kind: 'ok', checksum: parsed.success ? parsed.data.checksum : etag!, version: parsed.success ? parsed.data.version : null };
  }

  private async getAt(url: string, ifNoneMatch: string | null, hashesOnly: boolean): Promise<GetResult> {
    const headers: Record<string, string> = {};
    if (ifNoneMatch) headers['if-none-match'] = `"${ifNoneMatch}"`;
    const response = await this.request('GET', url, headers);
    if ('kind' in response) return response;
    if (response.status === 304) return { kind: 'not-modified' };
    if (response.status === 404) {
      const body = (await response.json().catch(() => null)) as unknown;
      // Only the API's own error shape means "no memory yet"; a 404 from anything else (a wrong server
      // URL, a proxy) must not read as an empty repository.
      if (errorBodySchema.safeParse(body).success) return { kind: 'not-found' };
      return { kind: 'http', status: 404, code: 'not_team_server', message: `${this.options.serverUrl} does not answer the team memory API` };
    }
    if (response.status !== 200) return this.failure(response);
    const body = (await response.json().catch(() => null)) as unknown;
    const parsed = hashesOnly ? hashesResponseSchema.safeParse(body) : getResponseSchema.safeParse(body);
    if (!parsed.success) return { kind: 'malformed', message: `unexpected team memory answer: ${parsed.error.issues[0]?.message ?? ''}` };
    const { version, lastModified, checksum, content } = parsed.data;
    return {
      kind: 'snapshot',
      snapshot: {
        version,
        lastModified,
        checksum,
        entries: 'entries' in content ? (content.entries as Record<string, string>) : undefined,
        entryChecksums: content.entryChecksums,
        tombstones: content.tombstones,
      },
    };
  }

  private async request(method: string, url: string, headers: Record<string, string>, body?: string): Promise<Response | ApiFailure> {
    const token = await this.options.getToken();
    if (!token) return { kind: 'http', status: 401, code: 'not_signed_in', message: 'not signed in to the team server' };
    try {
      return await this.fetchImpl(url, { method, headers: { ...headers, authorization: `Bearer ${token}` }, body });
    } catch (error) {
      return { kind: 'network', message: (error as Error).message };
    }
  }

  private async failure(response: Response): Promise<ApiFailure> {
    return this.failureFrom(response.status, await response.json().catch(() => null), response.headers.get('retry-after'));
  }

  private failureFrom(status: number, body: unknown, retryAfter: string | null): ApiFailure {
    const parsed = errorBodySchema.safeParse(body);
    const seconds = retryAfter !== null ? Number(retryAfter) : NaN;
    const tooMany = tooManyEntriesDetailsSchema.safeParse(parsed.success ? parsed.data.error.details : null);
    return {
      kind: 'http',
      status,
      code: parsed.success ? parsed.data.error.details.error_code : `http_${status}`,
      message: parsed.success ? parsed.data.error.message : `team server answered ${status}`,
      ...(Number.isFinite(seconds) ? { retryAfterMs: seconds * 1000 } : {}),
      ...(tooMany.success ? { maxEntries: tooMany.data.max_entries } : {}),
      // The key a 400 invalid_key or a per-file 413 names, so the client can hold back that file alone.
      ...(parsed.success && typeof parsed.data.error.details.key === 'string' ? { key: parsed.data.error.details.key } : {}),
    };
  }
}
