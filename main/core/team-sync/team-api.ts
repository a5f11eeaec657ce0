import {
  entryInfoSchema,
  type EntryInfo,
  errorBodySchema,
  getResponseSchema,
  hashesResponseSchema,
  putResponseSchema,
  tooManyEntriesDetailsSchema,
} from '../../../common/team-memory/index.js';
import type { RequestScope } from './wait-budget.js';

/**
 * The client side of the team-memory protocol (docs/memory.md#team-memory), parsed with the zod schemas shared with the
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
  /** The caller's signal ended the request (the app closing, Ctrl-C): not retried. */
  | { kind: 'cancelled'; message: string }
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
  /**
   * Until the answer's headers arrive (connecting included): a server that accepts the connection and
   * never answers fails here and is retried with backoff, rather than holding a sync for half an hour.
   */
  headersTimeoutMs?: number;
  /** The whole request, body read included (a first pull of thousands of files takes a while). */
  requestTimeoutMs?: number;
}

export const defaultHeadersTimeoutMs = 20_000;
export const defaultRequestTimeoutMs = 120_000;

const duration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`);

/** Why a request was aborted, as the failure the engine acts on. */
class RequestTimeout extends Error {}

/** One request's abort signal and the call that ends its wait for headers. */
interface RequestControl {
  signal: AbortSignal;
  headersArrived(): void;
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
  get(ifNoneMatch: string | null, scope?: RequestScope): Promise<GetResult> {
    return this.timed(scope, (c) => this.getAt(this.url, ifNoneMatch, false, c));
  }

  /** `?view=hashes`: the same snapshot without `entries`. */
  hashes(scope?: RequestScope): Promise<GetResult> {
    return this.timed(scope, (c) => this.getAt(`${this.url}&view=hashes`, null, true, c));
  }

  /** Who last changed `key` and when; null when the server cannot say (an older server, a failure). */
  async entryInfo(key: string, scope?: RequestScope): Promise<EntryInfo | null> {
    const url = `${this.url.replace('/api/team_memory?', '/api/team_memory/entry?')}&key=${encodeURIComponent(key)}`;
    const result = await this.timed<{ kind: 'info'; info: EntryInfo | null }>(scope, async (control) => {
      const response = await this.request('GET', url, {}, control);
      if ('kind' in response) return response;
      const parsed = entryInfoSchema.safeParse(await this.readJson(response));
      return { kind: 'info', info: response.status === 200 && parsed.success ? parsed.data : null };
    });
    return result.kind === 'info' ? result.info : null;
  }

  /** Upserts `entries` (null = delete); `ifMatch` null only for a repository with no memory yet. */
  put(entries: Record<string, string | null>, ifMatch: string | null, scope?: RequestScope): Promise<PutResult> {
    return this.timed(scope, (c) => this.putWith(entries, ifMatch, c));
  }

  /**
   * Runs one request under the caller's signal and both timeouts. Every read of the answer happens
   * inside, so a body that stops arriving is cut off by the same whole-request timeout. The wait for
   * the answer's headers is also bounded by what is left of the run's budget, and spent from it.
   */
  private async timed<T>(scope: RequestScope | undefined, call: (request: RequestControl) => Promise<T | ApiFailure>): Promise<T | ApiFailure> {
    const outer = scope?.signal;
    const budget = scope?.budget;
    if (outer?.aborted) return { kind: 'cancelled', message: 'the sync was stopped' };
    const unanswered = budget ? `the team server did not answer within ${duration(budget.totalMs)}` : '';
    if (budget && budget.leftMs <= 0) return { kind: 'network', message: unanswered };
    const controller = new AbortController();
    const ownMs = this.options.headersTimeoutMs ?? defaultHeadersTimeoutMs;
    const headersMs = Math.min(ownMs, budget?.leftMs ?? Infinity);
    const totalMs = this.options.requestTimeoutMs ?? defaultRequestTimeoutMs;
    const abort = (reason: unknown) => controller.abort(reason);
    const onOuter = () => abort(outer!.reason);
    outer?.addEventListener('abort', onOuter, { once: true });
    const headersMessage = headersMs < ownMs ? unanswered : `the team server did not answer within ${duration(headersMs)}`;
    const headersTimer = setTimeout(() => abort(new RequestTimeout(headersMessage)), headersMs);
    const totalTimer = setTimeout(() => abort(new RequestTimeout(`the team server's answer took longer than ${duration(totalMs)}`)), totalMs);
    const waitStarted = performance.now();
    let waiting = true;
    const answered = () => {
      if (!waiting) return;
      waiting = false;
      clearTimeout(headersTimer);
      budget?.spend(performance.now() - waitStarted);
    };
    try {
      return await call({ signal: controller.signal, headersArrived: answered });
    } catch (error) {
      if (outer?.aborted) return { kind: 'cancelled', message: 'the sync was stopped' };
      const reason = controller.signal.reason as unknown;
      if (reason instanceof RequestTimeout) return { kind: 'network', message: reason.message };
      return { kind: 'network', message: (error as Error).message };
    } finally {
      answered();
      clearTimeout(totalTimer);
      outer?.removeEventListener('abort', onOuter);
    }
  }

  private async putWith(entries: Record<string, string | null>, ifMatch: string | null, control: RequestControl): Promise<PutResult> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (ifMatch) headers['if-match'] = `"${ifMatch}"`;
    const response = await this.request('PUT', this.url, headers, control, JSON.stringify({ entries }));
    if ('kind' in response) return response;
    if (response.status !== 200) return this.failure(response);
    const parsed = putResponseSchema.safeParse(await this.readJson(response));
    const etag = bareEtag(response.headers.get('etag'));
    if (!parsed.success && !etag) return { kind: 'malformed', message: 'PUT answer has no checksum' };
    return { kind: 'ok', checksum: parsed.success ? parsed.data.checksum : etag!, version: parsed.success ? parsed.data.version : null };
  }

  private async getAt(url: string, ifNoneMatch: string | null, hashesOnly: boolean, control: RequestControl): Promise<GetResult> {
    const headers: Record<string, string> = {};
    if (ifNoneMatch) headers['if-none-match'] = `"${ifNoneMatch}"`;
    const response = await this.request('GET', url, headers, control);
    if ('kind' in response) return response;
    if (response.status === 304) return { kind: 'not-modified' };
    if (response.status === 404) {
      const body = await this.readJson(response);
      // Only the API's own error shape means "no memory yet"; a 404 from anything else (a wrong server
      // URL, a proxy) must not read as an empty repository.
      if (errorBodySchema.safeParse(body).success) return { kind: 'not-found' };
      return { kind: 'http', status: 404, code: 'not_team_server', message: `${this.options.serverUrl} does not answer the team memory API` };
    }
    if (response.status !== 200) return this.failure(response);
    const body = await this.readJson(response);
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

  /** Fetches; a network failure or an abort throws, for `timed` to name. */
  private async request(method: string, url: string, headers: Record<string, string>, control: RequestControl, body?: string): Promise<Response | ApiFailure> {
    const token = await this.options.getToken();
    if (!token) return { kind: 'http', status: 401, code: 'not_signed_in', message: 'not signed in to the team server' };
    const response = await this.fetchImpl(url, { method, headers: { ...headers, authorization: `Bearer ${token}` }, body, signal: control.signal });
    control.headersArrived();
    return response;
  }

  /**
   * The answer's JSON, null when it is not JSON. An abort or a dropped connection while the body
   * arrives is rethrown: a half-read answer is a network failure, not a malformed one.
   */
  private async readJson(response: Response): Promise<unknown> {
    const text = await response.text();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return null;
    }
  }

  private async failure(response: Response): Promise<ApiFailure> {
    return this.failureFrom(response.status, await this.readJson(response), response.headers.get('retry-after'));
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
