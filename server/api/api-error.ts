import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TeamErrorCode } from '../../common/team-memory/index.js';

/** A 4xx answer in docs/sync-protocol.md's shape: `{error:{message, details:{error_code, …}}}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: TeamErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Sends an ApiError; `no-store` because errors depend on who asked. */
export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply
    .code(error.status)
    .headers({ 'cache-control': 'no-store', ...error.headers })
    .send({ error: { message: error.message, details: { error_code: error.errorCode, ...error.details } } });
}

/** Wraps a route handler so a thrown ApiError becomes its docs/sync-protocol.md answer; anything else reaches the error handler. */
export function withApiErrors(
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
): (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> {
  return async (request, reply) => {
    try {
      return await handler(request, reply);
    } catch (error) {
      if (error instanceof ApiError) return sendApiError(reply, error);
      throw error;
    }
  };
}
