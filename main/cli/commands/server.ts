import path from 'node:path';
import { AppFailure } from '../../../common/result.js';
import { stderrLogger, type Logger } from '../../core/ports.js';
import { defaultAppDataDir } from '../../core/vault/index.js';
import { UsageError, type CliIo, type Command } from '../cli-io.js';
import { parseOptions, wholeNumber } from '../options.js';

/** `--data-dir` default: `<app data dir>/server`. */
export function defaultServerDataDir(env: NodeJS.ProcessEnv): string {
  return path.join(defaultAppDataDir(env), 'server');
}

/** The whole-number flags and their bounds; each may also come from STRATA_SERVER_<NAME> (flagOrEnv). */
const numberFlags = {
  port: { min: 0, max: 65535 },
  'max-entries': { min: 1 },
  'max-file-bytes': { min: 1 },
  'max-body-bytes': { min: 1 },
  'rate-limit': { min: 0 },
  'max-tombstones': { min: 0 },
  'max-repo-bytes': { min: 1, max: 64 * 1024 * 1024 },
  'request-timeout-ms': { min: 1000, max: 3_600_000 },
} as const satisfies Record<string, { min: number; max?: number }>;

type NumberFlag = keyof typeof numberFlags;

/**
 * `--db` (or STRATA_SERVER_DB), else `sqlite:<data dir>/team.db` with `--data-dir` (or
 * STRATA_SERVER_DATA_DIR, or `<app data>/server`); checked before anything opens it.
 */
async function dbOption(values: Record<string, unknown>, io: CliIo): Promise<string> {
  const dataDir = flagOrEnv(values, io, 'data-dir') || defaultServerDataDir(io.env);
  const db = flagOrEnv(values, io, 'db') ?? `sqlite:${path.join(path.resolve(dataDir), 'team.db')}`;
  const { parseDbUrl } = await import('../../../server/storage/sql-db.js');
  if (!parseDbUrl(db)) throw new UsageError('--db must be sqlite:<file> or postgres://…');
  return db;
}

/** A flag's value, else its STRATA_SERVER_<NAME> variable, else undefined. */
function flagOrEnv(values: Record<string, unknown>, io: CliIo, name: string): string | undefined {
  const value = values[name];
  if (typeof value === 'string') return value;
  return io.env[`STRATA_SERVER_${name.toUpperCase().replace(/-/g, '_')}`];
}

function numberOption(values: Record<string, unknown>, io: CliIo, name: NumberFlag): number | undefined {
  const bounds: { min: number; max?: number } = numberFlags[name];
  return wholeNumber(flagOrEnv(values, io, name), `--${name}`, bounds.min, bounds.max);
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

const usage = [
  'strata server [--db URL | --data-dir DIR] [--port N] [--host H] [--public-url U] [--max-entries N] [--max-file-bytes N] [--max-body-bytes N] [--rate-limit N] [--max-tombstones N] [--max-repo-bytes N] [--request-timeout-ms N] [--trust-proxy LIST]',
  '       strata server user add NAME [--password-stdin] [--db URL | --data-dir DIR]',
  '       strata server grant NAME owner/repo [--db URL | --data-dir DIR]',
  '       strata server token NAME [--expires-days N] [--db URL | --data-dir DIR]',
  '       strata server token revoke ID [--db URL | --data-dir DIR]',
].join('\n');

async function runAdmin(argv: string[], io: CliIo, readStdin: () => Promise<string>): Promise<number> {
  const { values, positionals } = parseOptions(
    argv,
    { db: { type: 'string' }, 'data-dir': { type: 'string' }, 'password-stdin': { type: 'boolean', default: false }, 'expires-days': { type: 'string' } },
    { positionals: true },
  );
  const db = await dbOption(values, io);
  const [verb, ...args] = positionals;
  const shape = `${verb} ${args[0] === 'add' || args[0] === 'revoke' ? args[0] : '_'}`;
  const want = (n: number) => {
    if (args.length !== n) throw new UsageError(`usage: ${usage.split('\n').find((l) => l.includes(`server ${verb}`))?.trim()}`);
  };
  if (shape === 'user add') want(2);
  else if (shape === 'grant _') want(2);
  else if (shape === 'token revoke') want(2);
  else if (shape === 'token _') want(1);
  else throw new UsageError(`unknown server command: ${positionals.join(' ')} (see strata server --help)`);
  const { TeamAdmin } = await import('../../../server/admin/team-admin.js');
  const password = values['password-stdin'] ? (await readStdin()).replace(/\r?\n$/, '') : null;
  const admin = await TeamAdmin.open(db);
  try {
    if (shape === 'user add') {
      await admin.addUser(args[1]!, password);
      io.stdout(`added user ${args[1]}${password === null ? ' (no password: personal tokens only)' : ''}`);
    } else if (shape === 'grant _') {
      await admin.grant(args[0]!, args[1]!);
      io.stdout(`${args[0]} is now a member of ${args[1]}`);
    } else if (shape === 'token revoke') {
      await admin.revokeToken(args[1]!);
      io.stdout(`revoked ${args[1]}`);
    } else {
      const days = wholeNumber(values['expires-days'], '--expires-days', 1) ?? null;
      const created = await admin.createToken(args[0]!, days);
      io.stdout(`token ${created.id} for ${args[0]}, ${created.expiresAt === null ? 'no expiry' : `expires ${new Date(created.expiresAt).toISOString()}`}`);
      io.stdout(created.token);
    }
    return 0;
  } catch (error) {
    if (error instanceof AppFailure && (error.code === 'invalid_request' || error.code === 'not_found' || error.code === 'conflict')) {
      throw new UsageError(error.message);
    }
    throw error;
  } finally {
    await admin.close();
  }
}

async function runServer(argv: string[], io: CliIo, logger: Logger): Promise<number> {
  const { values, positionals } = parseOptions(
    argv,
    {
      db: { type: 'string' },
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'public-url': { type: 'string' },
      'max-entries': { type: 'string' },
      'max-file-bytes': { type: 'string' },
      'max-body-bytes': { type: 'string' },
      'rate-limit': { type: 'string' },
      'max-tombstones': { type: 'string' },
      'max-repo-bytes': { type: 'string' },
      'request-timeout-ms': { type: 'string' },
      'trust-proxy': { type: 'string' },
    },
    { positionals: true },
  );
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]} (see strata server --help)`);
  const publicUrl = flagOrEnv(values, io, 'public-url');
  if (publicUrl !== undefined && !/^https?:\/\/[^/]+/.test(publicUrl)) throw new UsageError('--public-url must be an http(s) URL');
  const limits = Object.fromEntries(
    (
      [
        ['maxEntries', numberOption(values, io, 'max-entries')],
        ['maxFileBytes', numberOption(values, io, 'max-file-bytes')],
        ['maxBodyBytes', numberOption(values, io, 'max-body-bytes')],
        ['rateLimitPerMinute', numberOption(values, io, 'rate-limit')],
        ['maxTombstones', numberOption(values, io, 'max-tombstones')],
        ['maxRepoBytes', numberOption(values, io, 'max-repo-bytes')],
        ['requestTimeoutMs', numberOption(values, io, 'request-timeout-ms')],
      ] as const
    ).filter(([, v]) => v !== undefined),
  );
  const { startTeamServer, defaultPort } = await import('../../../server/index.js');
  const server = await startTeamServer({
    db: await dbOption(values, io),
    host: flagOrEnv(values, io, 'host') ?? '127.0.0.1',
    port: numberOption(values, io, 'port') ?? defaultPort,
    publicUrl,
    limits,
    trustProxy: flagOrEnv(values, io, 'trust-proxy'),
    logger,
  });
  io.stdout(server.url);
  await io.stopped;
  await server.close();
  return 0;
}

/** `strata server …`; stdin and the log sink are injectable so tests can feed `--password-stdin` and keep logs. */
export function createServerCommand(
  readStdin: () => Promise<string> = () => readAll(process.stdin),
  logger: Logger = stderrLogger(),
): Command {
  return {
    name: 'server',
    summary: 'run the team memory sync server, or administer its users and tokens',
    usage,
    async run(argv, io) {
      const first = argv[0];
      if (first === 'user' || first === 'grant' || first === 'token') return runAdmin(argv, io, readStdin);
      return runServer(argv, io, logger);
    },
  };
}

export const serverCommand = createServerCommand();
