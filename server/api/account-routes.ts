import type { FastifyInstance } from 'fastify';
import { withApiErrors } from './api-error.js';
import { authenticateRequest, type RequestAuthDeps } from './authenticate-request.js';

/**
 * `GET /api/me` → `{user}`: who the bearer token signs in as, so the desktop app can show it. Same
 * 401 and 429 as the team-memory API; not part of docs/sync-protocol.md's protocol, which it leaves unchanged.
 */
export function registerAccountRoutes(app: FastifyInstance, deps: RequestAuthDeps): void {
  app.get(
    '/api/me',
    withApiErrors(async (request, reply) => {
      const caller = await authenticateRequest(deps, request);
      return reply.header('cache-control', 'no-store').send({ user: caller.username });
    }),
  );
}
