import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { CliIo } from '../../main/cli/cli-io.js';
import { runCli } from '../../main/cli/index.js';
import { afterAll, beforeAll } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/anthropic-server/index.js';
import type { WireRequest } from '../fakes/anthropic-server/validate.js';
import { tempDir } from '../support/temp-dir.js';
import { runClaude, type ClaudeRun, type Oracle } from './claude-code-oracle.js';
import { mainRequests, oracleResponder } from './model-input.js';

/** One conformance fixture: a home folder, Claude Code's config folder (Strata's vault) and a project. */
export interface World {
  root: string;
  home: string;
  /** `~/.claude`: Claude Code's config folder and Strata's vault. */
  vault: string;
  project: string;
}

export async function write(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
}

export async function world(projectName = 'proj'): Promise<World> {
  const root = await tempDir('strata-conformance-');
  const home = path.join(root, 'home');
  const vault = path.join(home, '.claude');
  const project = path.join(home, 'work', projectName);
  await fs.mkdir(vault, { recursive: true });
  await fs.mkdir(project, { recursive: true });
  return { root, home, vault, project: await fs.realpath(project) };
}

/** The main agent's requests the fake received while `work` ran. */
async function capturedBy<T>(fake: FakeAnthropic, work: () => Promise<T>): Promise<{ value: T; requests: WireRequest[] }> {
  const from = fake.requests.length;
  const value = await work();
  return { value, requests: mainRequests(fake.requests.slice(from)) };
}

/** `strata ask` in-process against the fake, with HOME at the fixture's home (for `@~/` includes) while it runs. */
async function strataAsk(fake: FakeAnthropic, w: World, prompt: string, o: { cwd?: string; session?: string } = {}): Promise<{ sessionId: string; transcript: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (l) => out.push(l),
    stderr: (l) => err.push(l),
    env: { ANTHROPIC_API_KEY: 'sk-ant-conformance', ANTHROPIC_BASE_URL: fake.url, STRATA_APP_DATA: path.join(w.root, 'app-data') },
    stopped: new Promise(() => undefined),
  };
  const home = process.env.HOME;
  process.env.HOME = w.home;
  try {
    const args = ['ask', '--project', o.cwd ?? w.project, '--vault', w.vault, '--no-memory', '--json', ...(o.session ? ['--session', o.session] : []), prompt];
    const code = await runCli(args, io);
    if (code !== 0) throw new Error(`strata ask exited ${code}: ${err.join('\n')}`);
  } finally {
    process.env.HOME = home;
  }
  return JSON.parse(out.at(-1)!) as { sessionId: string; transcript: string };
}

/**
 * One test file's loopback fake (answering as `oracleResponder`) and the three ways to use it: a turn of
 * the oracle Claude Code, a turn of `strata ask`, and the main requests either sent while some work ran.
 */
export function conformanceRig(oracle: Oracle) {
  let fake: FakeAnthropic | undefined;
  beforeAll(async () => {
    fake = await startFakeAnthropic({ respond: oracleResponder });
  });
  afterAll(async () => {
    await fake?.close();
  });
  const api = (): FakeAnthropic => {
    if (!fake) throw new Error('the fake Messages API is not running');
    return fake;
  };
  return {
    claude(w: World, prompt: string, o: { cwd?: string; resume?: string } = {}): Promise<ClaudeRun> {
      if ('skip' in oracle) throw new Error(oracle.skip);
      return runClaude(oracle, { cwd: o.cwd ?? w.project, home: w.home, configDir: w.vault, apiUrl: api().url, prompt, resume: o.resume });
    },
    strata: (w: World, prompt: string, o: { cwd?: string; session?: string } = {}) => strataAsk(api(), w, prompt, o),
    captured: <T>(work: () => Promise<T>) => capturedBy(api(), work),
  };
}
