import { execFile, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The real Claude Code as a test oracle (docs/architecture.md#how-it-is-tested "Claude Code as a test oracle"): the pinned npm
 * package is installed once into a cache outside the repository (never a dependency of the app) and
 * run against the loopback fake. 2.1.88 ships `cli.js`, run under Node; newer versions ship a native
 * binary in a per-platform package (docs/claude-code-parity.md#the-conformance-suite).
 */
export const ORACLE_VERSION = '2.1.88';
/** The newest Claude Code checked (items its memory shape and reminder delta depend on). */
export const NEWEST_ORACLE_VERSION = '2.1.332';

/** `cli` is 2.1.88's `cli.js` or a newer version's native executable. */
export type Oracle = { cli: string; version: string } | { skip: string };

/** 2.1.88 (and the versions before it) ship `cli.js`; 2.1.332 an executable in `@anthropic-ai/claude-code-<platform>`. */
const shipsCliJs = (version: string) => {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  return major < 2 || (major === 2 && (minor < 1 || (minor === 1 && patch <= 88)));
};

/** The npm package and the file in it that runs this version on this machine, or why none does. */
function packageFor(version: string): { name: string; file: string } | { skip: string } {
  if (shipsCliJs(version)) return { name: '@anthropic-ai/claude-code', file: 'cli.js' };
  // The wrapper package's postinstall only copies this executable over a stub; the platform package is
  // installed alone. musl and Android builds are not told apart here: CI runs glibc Linux.
  const platforms = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64', 'win32-arm64'];
  const platform = `${process.platform}-${process.arch}`;
  if (!platforms.includes(platform)) return { skip: `Claude Code ${version} ships no native binary for ${platform}` };
  return { name: `@anthropic-ai/claude-code-${platform}`, file: process.platform === 'win32' ? 'claude.exe' : 'claude' };
}

const cacheRoot = () => process.env.STRATA_CONFORMANCE_CACHE ?? path.join(os.homedir(), '.cache', 'strata-conformance');

function run(cmd: string, args: string[], cwd: string, timeoutMs: number): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ ok: !error, output: `${stdout}${stderr}`.trim() });
    });
  });
}

/** Finds or installs `@anthropic-ai/claude-code@<version>`; says why when it cannot. */
export async function claudeCode(version = ORACLE_VERSION): Promise<Oracle> {
  if (process.env.STRATA_CONFORMANCE === 'off') return { skip: 'STRATA_CONFORMANCE=off' };
  const pkg = packageFor(version);
  if ('skip' in pkg) return pkg;
  const dir = path.join(cacheRoot(), version);
  const cli = path.join(dir, 'node_modules', ...pkg.name.split('/'), pkg.file);
  if (await fs.stat(cli).then(() => true, () => false)) return { cli, version };
  // Several test files may ask at once on a fresh machine: one installs, the others wait for it.
  await fs.mkdir(cacheRoot(), { recursive: true });
  const lock = `${dir}.installing`;
  for (const end = Date.now() + 300_000; ; ) {
    if (await fs.mkdir(lock).then(() => true, () => false)) break;
    const age = await fs.stat(lock).then((st) => Date.now() - st.mtimeMs, () => 0);
    if (age > 600_000) await fs.rm(lock, { recursive: true, force: true });
    if (Date.now() > end) return { skip: `another process has been installing Claude Code ${version} for 5 minutes (${lock})` };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  try {
    if (await fs.stat(cli).then(() => true, () => false)) return { cli, version };
    return await install(dir, cli, `${pkg.name}@${version}`, version);
  } finally {
    await fs.rm(lock, { recursive: true, force: true });
  }
}

async function install(dir: string, cli: string, spec: string, version: string): Promise<Oracle> {
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'package.json'), '{"name":"strata-conformance-oracle","private":true}\n');
  // --ignore-scripts: the oracle's own install steps are not needed to run cli.js or the native binary.
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const installed = await run(npm, ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-save', '--fetch-retries=1', '--fetch-timeout=30000', spec], dir, 240_000);
  if (!installed.ok || !(await fs.stat(cli).then(() => true, () => false))) {
    const why = installed.output.split('\n').find((l) => /ERR|error/i.test(l)) ?? installed.output.split('\n').at(-1) ?? 'no output';
    return { skip: `the npm registry could not provide ${spec} (${why.slice(0, 200)})` };
  }
  return { cli, version };
}

export interface ClaudeRun {
  /** Claude Code's `--output-format json` result. */
  result: { session_id: string; result?: string; is_error?: boolean };
  stderr: string;
}

/**
 * One non-interactive turn: `HOME` and `CLAUDE_CONFIG_DIR` are the test's, the API is the fake.
 * `cwd` is the project folder Claude Code is started in.
 */
export function runClaude(
  oracle: { cli: string },
  o: { cwd: string; home: string; configDir: string; apiUrl: string; prompt: string; resume?: string; extraArgs?: string[] },
): Promise<ClaudeRun> {
  const args = ['-p', o.prompt, '--output-format', 'json', ...(o.resume ? ['--resume', o.resume] : []), ...(o.extraArgs ?? [])];
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: o.home,
    CLAUDE_CONFIG_DIR: o.configDir,
    ANTHROPIC_API_KEY: 'sk-ant-conformance',
    ANTHROPIC_BASE_URL: o.apiUrl,
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  return new Promise((resolve, reject) => {
    const [command, argv] = oracle.cli.endsWith('.js') ? [process.execPath, [oracle.cli, ...args]] : [oracle.cli, args];
    const child = spawn(command, argv, { cwd: o.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const line = stdout.trim().split('\n').at(-1) ?? '';
      try {
        resolve({ result: JSON.parse(line) as ClaudeRun['result'], stderr });
      } catch {
        reject(new Error(`Claude Code exited ${code} without a JSON result: ${stdout.slice(0, 500)} ${stderr.slice(0, 500)}`));
      }
    });
  });
}
