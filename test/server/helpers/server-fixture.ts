import { startTeamServer, TeamAdmin, type ServerLimits, type TeamServer, type TeamServerOptions } from '../../../server/index.js';
import type { Clock } from '../../../main/core/ports.js';
import type { PasswordCost } from '../../../server/server-crypto.js';
import { testLogger } from '../../support/test-logger.js';

/** A clock tests can move forward. */
export class TestClock implements Clock {
  offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
  advance(ms: number): void {
    this.offset += ms;
  }
}

/** A running server on loopback plus direct admin access to its database. */
export interface ServerFixture {
  server: TeamServer;
  admin: TeamAdmin;
  clock: TestClock;
  logs: ReturnType<typeof testLogger>;
  /** A new user (no password) who is a member of `repos`, and a personal token for them. */
  member(repos: string[], password?: string): Promise<{ username: string; token: string }>;
  api(repo: string, extra?: string): string;
  close(): Promise<void>;
}

/**
 * scrypt at a cost that takes well under a millisecond, so tests that sign in many times do not pay
 * production's cost each time; test/server/auth/password-cost.test.ts proves production's is the default.
 */
export const cheapPasswordCost: PasswordCost = { N: 16, r: 1, p: 1 };

let counter = 0;

export async function startFixture(
  dbUrl: string,
  limits: Partial<ServerLimits> = {},
  options: Pick<TeamServerOptions, 'publicUrl' | 'trustProxy' | 'cleanupIntervalMs' | 'passwordCost'> = {},
): Promise<ServerFixture> {
  const clock = new TestClock();
  const logs = testLogger();
  const passwordCost = options.passwordCost ?? cheapPasswordCost;
  const admin = await TeamAdmin.open(dbUrl, clock, passwordCost);
  const server = await startTeamServer({ ...options, passwordCost, db: dbUrl, port: 0, logger: logs.logger, clock, limits: { rateLimitPerMinute: 0, ...limits } });
  return {
    server,
    admin,
    clock,
    logs,
    async member(repos, password) {
      const username = `user${++counter}_${process.pid}`;
      await admin.addUser(username, password ?? null);
      for (const repo of repos) await admin.grant(username, repo);
      const { token } = await admin.createToken(username, null);
      return { username, token };
    },
    api(repo, extra = '') {
      return `${server.url}/api/team_memory?repo=${encodeURIComponent(repo)}${extra}`;
    },
    async close() {
      await server.close();
      await admin.close();
    },
  };
}

/** Fetch helpers for the team-memory API. */
export function client(token: string) {
  const auth = { authorization: `Bearer ${token}` };
  return {
    get: (url: string, headers: Record<string, string> = {}) => fetch(url, { headers: { ...auth, ...headers } }),
    put: (url: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(url, {
        method: 'PUT',
        headers: { ...auth, 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
  };
}

let repoCounter = 0;
/** A repository name no other test uses. */
export function freshRepo(): string {
  return `acme/repo-${++repoCounter}-${process.pid}`;
}

/** The shapes tests read from JSON answers (API bodies, errors, OAuth metadata), loosely typed. */
export interface TestBody {
  error: { message: string; details: Record<string, unknown> & { error_code: string; reason: string; unknown_fields: string[] } };
  repo: string;
  version: number;
  checksum: string;
  content: {
    entries: Record<string, string>;
    entryChecksums: Record<string, string>;
    tombstones: Record<string, { deletedAt: string; checksum: string }>;
  };
  issuer: string;
}

/** A response's JSON body as a TestBody. */
export function json(res: Response): Promise<TestBody> {
  return res.json() as Promise<TestBody>;
}
