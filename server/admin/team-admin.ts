import { isValidRepo } from '../../common/team-memory/index.js';
import { AppFailure } from '../../common/result.js';
import { systemClock, type Clock } from '../../common/ports.js';
import { AuthStore } from '../storage/auth-store.js';
import { openDatabase } from '../storage/open-db.js';
import type { SqlDb } from '../storage/sql-db.js';
import { hashPassword, hashSecret, newId, newSecret, productionPasswordCost, type PasswordCost } from '../server-crypto.js';
import { usernamePattern } from '../server-options.js';


/** A personal access token as created; `token` is shown once and never stored. */
export interface CreatedToken {
  id: string;
  token: string;
  expiresAt: number | null;
}

/**
 * The `strata server user add | grant | token | token revoke` operations (docs/architecture.md), on the database
 * directly, so they work with the server stopped or running. Failures are AppFailures with a message
 * fit for the one stderr line.
 */
export class TeamAdmin {
  private readonly store: AuthStore;

  private constructor(
    private readonly db: SqlDb,
    private readonly clock: Clock,
    private readonly passwordCost: PasswordCost,
  ) {
    this.store = new AuthStore(db);
  }

  /** Opens (creating and migrating) the database named by `--db`; only tests pass a cheaper `passwordCost`. */
  static async open(dbUrl: string, clock: Clock = systemClock, passwordCost: PasswordCost = productionPasswordCost): Promise<TeamAdmin> {
    return new TeamAdmin(await openDatabase(dbUrl), clock, passwordCost);
  }

  async addUser(username: string, password: string | null): Promise<{ id: string }> {
    if (!usernamePattern.test(username)) {
      throw new AppFailure('invalid_request', `user name must be 1–64 letters, digits or . _ @ -, not ${JSON.stringify(username)}`);
    }
    if (password !== null && password.length < 8) throw new AppFailure('invalid_request', 'the password must be at least 8 characters');
    const id = newId('usr_');
    const hash = password === null ? null : await hashPassword(password, this.passwordCost);
    if (!(await this.store.createUser(id, username, hash, this.clock.now()))) {
      throw new AppFailure('conflict', `user ${username} already exists`);
    }
    return { id };
  }

  async grant(username: string, repo: string): Promise<void> {
    if (!isValidRepo(repo)) throw new AppFailure('invalid_request', `repository must be owner/name, not ${JSON.stringify(repo)}`);
    const user = await this.requireUser(username);
    await this.store.grant(user.id, repo, this.clock.now());
  }

  /** A personal access token for scripts; only its hash is stored. */
  async createToken(username: string, expiresDays: number | null): Promise<CreatedToken> {
    if (expiresDays !== null && (!Number.isInteger(expiresDays) || expiresDays <= 0)) {
      throw new AppFailure('invalid_request', '--expires-days must be a positive whole number');
    }
    const user = await this.requireUser(username);
    const now = this.clock.now();
    const token = newSecret('spat_');
    const id = newId('pat_');
    const expiresAt = expiresDays === null ? null : now + expiresDays * 24 * 60 * 60 * 1000;
    await this.store.saveAccessToken(hashSecret(token), { id, userId: user.id, kind: 'pat', familyId: null, expiresAt }, now);
    return { id, token, expiresAt };
  }

  async revokeToken(id: string): Promise<void> {
    if (!(await this.store.revokeAccessTokenById(id, this.clock.now()))) throw new AppFailure('not_found', `no token with id ${id}`);
  }

  async close(): Promise<void> {
    await this.db.close();
  }

  private async requireUser(username: string) {
    const user = usernamePattern.test(username) ? await this.store.findUser(username) : null;
    if (!user) throw new AppFailure('not_found', `no user named ${username} (add one with strata server user add)`);
    return user;
  }
}
