import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import { systemClock, type Clock, type Logger } from '../common/ports.js';
import { ApiError, sendApiError } from './api/api-error.js';
import { RateLimiter } from './api/rate-limiter.js';
import { registerAccountRoutes } from './api/account-routes.js';
import { registerTeamMemoryRoutes } from './api/team-memory-routes.js';
import { registerCsrf } from './auth/csrf.js';
import { registerOAuthRoutes } from './auth/oauth-routes.js';
import { SignInThrottle } from './auth/sign-in-throttle.js';
import { TokenCleanup } from './auth/token-cleanup.js';
import { AuthStore } from './storage/auth-store.js';
import { MemoryStore } from './storage/memory-store.js';
import { openDatabase } from './storage/open-db.js';
import type { SqlDb } from './storage/sql-db.js';
import { productionPasswordCost, sha256Hex, type PasswordCost } from './server-crypto.js';
import { defaultLifetimes, defaultLimits, type AuthLifetimes, type ServerLimits } from './server-options.js';

/** How to start a team server; everything but `db` has a default. */
export interface TeamServerOptions {
  /** `sqlite:<file>` or `postgres://…`. */
  db: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** The URL clients use (issuer in the OAuth metadata); default `http://<host>:<port>`. */
  publicUrl?: string;
  limits?: Partial<ServerLimits>;
  lifetimes?: Partial<AuthLifetimes>;
  /**
   * Proxies whose `X-Forwarded-For` names the client (addresses, CIDR ranges or `loopback`, comma
   * separated), so the sign-in throttle counts clients rather than the proxy; none by default.
   */
  trustProxy?: string;
  /** How often ended tokens and codes are removed after the run at start (default hourly). */
  cleanupIntervalMs?: number;
  clock?: Clock;
  /** scrypt's cost for a sign-in with no such account; production's unless a test makes it cheap. */
  passwordCost?: PasswordCost;
  logger: Logger;
}

/** A running server. `close()` stops accepting, finishes in-flight requests, then closes the database. */
export interface TeamServer {
  url: string;
  port: number;
  publicUrl: string;
  close(): Promise<void>;
}

function statusError(error: FastifyError): ApiError | null {
  if (error instanceof ApiError) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'body_too_large', 'the request body is larger than this server accepts');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, 'unsupported_media_type', 'send the body as application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, 'invalid_json', 'the body is empty');
    default:
      return error.statusCode && error.statusCode >= 400 && error.statusCode < 500
        ? new ApiError(error.statusCode, 'invalid_request', error.message)
        : null;
  }
}

/**
 * A request Node could not even parse (bad request line or headers, header overflow, timeout) gets the
 * docs/sync-protocol.md error body too; the socket then closes, as Node's own handler does.
 */
function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'the request took too long to arrive']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'the request headers are larger than this server accepts']
        : [400, 'the request is not valid HTTP'];
  const body = JSON.stringify({ error: { message, details: { error_code: 'invalid_request' } } });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

function buildApp(db: SqlDb, options: TeamServerOptions, publicUrl: () => string, closing: () => boolean): FastifyInstance {
  const clock = options.clock ?? systemClock;
  const limits: ServerLimits = { ...defaultLimits, ...options.limits };
  const lifetimes: AuthLifetimes = { ...defaultLifetimes, ...options.lifetimes };
  const logger = options.logger;
  const app = Fastify({
    logger: false,
    bodyLimit: limits.maxBodyBytes,
    genReqId: () => randomUUID(),
    trustProxy: options.trustProxy ? options.trustProxy.split(',').map((s) => s.trim()).filter(Boolean) : false,
    forceCloseConnections: 'idle',
    // A member whose body never finishes must not hold a connection forever: the whole request
    // (headers and body) has `requestTimeoutMs`, checked every second, then a 408 closes it.
    requestTimeout: limits.requestTimeoutMs,
    http: {
      headersTimeout: Math.min(limits.requestTimeoutMs, 60_000),
      connectionsCheckingInterval: Math.min(1_000, limits.requestTimeoutMs),
    },
    return503OnClosing: true,
    clientErrorHandler,
    // A path that does not URL-decode never reaches a route or a hook: answer it in docs/sync-protocol.md's shape here.
    frameworkErrors: (error, request, reply) =>
      sendApiError(reply.header('x-request-id', request.id), new ApiError(400, 'invalid_request', error.message)),
  });
  const auth = new AuthStore(db);
  const memory = new MemoryStore(db, sha256Hex);

  // The PUT body is parsed in the route, so malformed JSON gets docs/sync-protocol.md's `invalid_json` body. JSON is
  // UTF-8 (RFC 8259 §8.1): a body declared in another charset would be read as something it is not,
  // so it is refused with 415 rather than guessed; `text/plain` has no parser and is refused too.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(request.headers['content-type'] ?? '')?.[1];
    if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
      done(new ApiError(415, 'unsupported_media_type', `send the body as application/json in UTF-8, not ${charset}`), undefined);
      return;
    }
    done(null, body);
  });
  app.register(formbody, { bodyLimit: 64 * 1024 });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // While closing, a keep-alive connection ends with the response it carries, so close() waits for
  // in-flight requests only, never for idle sockets to time out.
  app.addHook('onSend', async (_request, reply) => {
    if (closing()) reply.header('connection', 'close');
  });
  // One structured line a request: no bodies, no query strings (they may carry OAuth state), no tokens.
  app.addHook('onResponse', async (request, reply) => {
    const caller = (request as { caller?: { username: string } }).caller;
    const repo = (request.query as Record<string, unknown> | undefined)?.repo;
    logger.info('request', {
      reqId: request.id,
      method: request.method,
      route: request.routeOptions.url ?? request.url.split('?')[0],
      ...(typeof repo === 'string' && request.url.startsWith('/api/') ? { repo } : {}),
      ...(caller ? { user: caller.username } : {}),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    });
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = statusError(error);
    if (known) return sendApiError(reply, known);
    logger.error('request failed', { reqId: request.id, error: error.message });
    return reply.code(500).send({ error: { message: 'internal server error', details: { error_code: 'internal', request_id: request.id } } });
  });
  app.setNotFoundHandler((_request, reply) => sendApiError(reply, new ApiError(404, 'not_found', 'no such endpoint')));

  app.get('/healthz', async (_request, reply) => {
    await db.query('SELECT 1 AS ok');
    return reply.header('cache-control', 'no-store').send({ ok: true });
  });
  const limiter = new RateLimiter(db, limits.rateLimitPerMinute, clock);
  registerTeamMemoryRoutes(app, { auth, memory, clock, limits, limiter });
  registerAccountRoutes(app, { auth, clock, limiter });
  app.register(async (scope) => {
    await registerCsrf(scope);
    registerOAuthRoutes(scope, {
      auth,
      clock,
      logger,
      lifetimes,
      throttle: new SignInThrottle(db, clock),
      passwordCost: options.passwordCost ?? productionPasswordCost,
      get publicUrl() {
        return publicUrl();
      },
    });
  });
  return app;
}

/** Opens (and migrates) the database, then listens. */
export async function startTeamServer(options: TeamServerOptions): Promise<TeamServer> {
  const db = await openDatabase(options.db);
  const host = options.host ?? '127.0.0.1';
  let publicUrl = options.publicUrl?.replace(/\/+$/, '') ?? '';
  let closing: Promise<void> | null = null;
  const app = buildApp(db, options, () => publicUrl, () => closing !== null);
  try {
    await app.listen({ host, port: options.port ?? 0 });
  } catch (error) {
    await db.close();
    throw error;
  }
  const port = (app.server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (!publicUrl) publicUrl = url;
  options.logger.info('team server listening', { url, publicUrl });
  const cleanup = new TokenCleanup(new AuthStore(db), options.clock ?? systemClock, options.logger, options.cleanupIntervalMs);
  cleanup.start();
  return {
    url,
    port,
    publicUrl,
    close() {
      closing ??= (async () => {
        await cleanup.stop();
        await app.close();
        await db.close();
      })();
      return closing;
    },
  };
}
