import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { runForkedAgent } from '../../../../main/core/agent/index.js';
import { createExtractorCanUseTool, toLoopCanUseTool } from '../../../../main/core/auto-memory/extractor-permissions.js';
import { checkMemoryWrite } from '../../../../main/core/auto-memory/write-sandbox.js';
import { memoryWriteGuard } from '../../../../main/core/auto-memory/write-guard.js';
import { agentTools } from '../../../../main/core/chat/agent-setup.js';
import { createDispatcher } from '../../../../main/core/ipc/dispatcher.js';
import { createHandlers } from '../../../../main/core/ipc/handlers.js';
import { createLlmClient } from '../../../../main/core/llm/index.js';
import { allowancesFile, SecretAllowanceStore } from '../../../../main/core/secrets/index.js';
import { createServices, type Services } from '../../../../main/core/services.js';
import { defaultTools, ReadState, realScope, runTool, type ToolContext } from '../../../../main/core/tools/index.js';
import { startFakeAnthropic, text, toolCalls, type FakeAnthropic, type WireRequest } from '../../../fakes/anthropic-server/index.js';
import { githubToken, SeededRandom } from '../../../fixtures/secrets/seeded-random.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';

/**
 * "Not a secret" end to end: the agent's memory write is refused by the scanner through the real agent
 * loop (SDK against the loopback fake Messages API), the user marks the finding through the real IPC
 * dispatcher, the same write then lands; and the agent has no way to mark one itself.
 */
let fake: FakeAnthropic | null = null;
let services: Services | null = null;
afterEach(async () => {
  await fake?.close();
  await services?.close();
  fake = null;
  services = null;
});

async function vaultWithMemory() {
  const vault = await tempDir('strata-allow-vault-');
  const project = await tempDir('strata-allow-project-');
  const memory = path.join(vault, 'projects', 'p', 'memory');
  await fs.mkdir(memory, { recursive: true });
  const log = testLogger();
  services = await createServices({ appDataDir: await tempDir('strata-allow-app-'), vaultRoot: vault, shell: 'cli', watch: false, logger: log.logger });
  const dispatch = createDispatcher(createHandlers(services, 'host'), log.logger);
  return { vault, project, memory, log, dispatch };
}

type Env = Awaited<ReturnType<typeof vaultWithMemory>>;

/** One agent turn that calls Write once (as the model would), with the guard agent-setup builds. */
async function agentWrites(env: Env, file: string, content: string): Promise<{ isError: boolean; text: string }> {
  await fake?.close();
  fake = await startFakeAnthropic({
    strict: true,
    respond: (body: WireRequest) => ((body.messages ?? []).some((m) => m.role === 'assistant') ? text('Done.') : toolCalls([{ name: 'Write', input: { file_path: file, content } }])),
  });
  const allowances = SecretAllowanceStore.forVault(env.vault);
  const guard = memoryWriteGuard({ memoryDirs: [env.memory], scan: (t) => allowances.scan(t, { fingerprints: true }) });
  const result = await runForkedAgent({
    llm: createLlmClient({ getApiKey: async () => 'sk-ant-test', baseURL: fake.url, model: 'claude-test' }),
    system: [{ type: 'text', text: 'You are Strata.' }],
    tools: defaultTools(),
    messages: [],
    promptMessages: [{ role: 'user', content: 'Remember the CI setup.' }],
    toolContext: {
      scope: await realScope({ project: env.project, memory: [env.memory], readOnly: [] }),
      readState: new ReadState(),
      limits: defaultMemoryConfig.agent,
      beforeMemoryWrite: async (f, c) => {
        const check = await guard.check({ path: f, ...(c === null ? {} : { content: c }) });
        return check.ok ? null : `Refused: ${check.reason}.`;
      },
    },
    canUseTool: toLoopCanUseTool(createExtractorCanUseTool({ projectDir: env.project, guard })),
    maxTurns: 3,
    session: { sessionId: 's1', cwd: env.project },
  });
  expect(result.status).toBe('completed');
  const block = result.records
    .flatMap((r) => (typeof r.message.content === 'string' ? [] : r.message.content))
    .find((b) => b.type === 'tool_result') as { is_error?: boolean; content: unknown };
  return { isError: block.is_error === true, text: JSON.stringify(block.content) };
}

/** The finding references a refusal offers to the user: `[finding RULE FINGERPRINT]`. */
const findingRefs = (refusal: string) => [...refusal.matchAll(/\[finding ([a-z0-9-]+) ([a-f0-9]{64})\]/g)].map((m) => ({ rule: m[1]!, fingerprint: m[2]! }));

/** No run of 12+ characters of the value appears (a value cut in pieces is still the value). */
function expectNoValue(haystack: string, value: string): void {
  for (let i = 0; i + 12 <= value.length; i++) expect(haystack).not.toContain(value.slice(i, i + 12));
}

describe('"Not a secret" for an agent memory write', () => {
  it('refuses the write, the user marks the finding, the same write then lands; revoking refuses it again', async () => {
    const env = await vaultWithMemory();
    const value = githubToken(new SeededRandom(41), 'ghp');
    const file = path.join(env.memory, 'ci.md');
    const content = `# CI\n\nThe revoked demo token from the security training: ${value}\n`;

    const first = await agentWrites(env, file, content);
    expect(first.isError).toBe(true);
    expect(first.text).toMatch(/rule github-pat on line 3/);
    expectNoValue(first.text, value);
    await expect(fs.stat(file)).rejects.toThrow();

    const [ref] = findingRefs(first.text);
    expect(ref?.rule).toBe('github-pat');
    const allowed = await env.dispatch('secrets:allow', { ...ref, where: 'memory write: ci.md' });
    expect(allowed.ok).toBe(true);

    const second = await agentWrites(env, file, content);
    expect(second.isError, second.text).toBe(false);
    expect(await fs.readFile(file, 'utf8')).toBe(content);

    // The allowance is for this value only: another token under the same rule is still refused.
    const other = githubToken(new SeededRandom(42), 'ghp');
    expect((await agentWrites(env, path.join(env.memory, 'other.md'), `token ${other}\n`)).isError).toBe(true);

    // Settings lists it by rule and place, and nothing of the value reaches the file, the list or the log.
    const listed = await env.dispatch('secrets:list-allowances', {});
    expect(listed).toMatchObject({ ok: true, value: [{ rule: 'github-pat', where: 'memory write: ci.md' }] });
    const stored = await fs.readFile(allowancesFile(env.vault), 'utf8');
    expectNoValue(stored, value);
    expectNoValue(JSON.stringify(listed), value);
    expect(JSON.stringify(listed)).not.toContain(ref!.fingerprint);
    expectNoValue(JSON.stringify(env.log.entries), value);
    expect((await fs.stat(allowancesFile(env.vault))).mode & 0o077).toBe(0);

    const id = (listed as { value: { id: string }[] }).value[0]!.id;
    expect((await env.dispatch('secrets:revoke-allowance', { id })).ok).toBe(true);
    expect((await agentWrites(env, file, `${content}\nmore\n`)).isError).toBe(true);
    env.log.assertNoErrors();
  });

  it('refuses a marking the IPC schema or the rules table does not know', async () => {
    const env = await vaultWithMemory();
    expect(await env.dispatch('secrets:allow', { rule: 'github-pat', fingerprint: 'abc', where: 'x' })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(await env.dispatch('secrets:allow', { rule: 'no-such-rule', fingerprint: 'a'.repeat(64), where: 'x' })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(await env.dispatch('secrets:allow', { rule: 'github-pat', fingerprint: 'a'.repeat(64), where: 'x', value: 'ghp_x' })).toMatchObject({ ok: false });
    await expect(fs.stat(allowancesFile(env.vault))).rejects.toThrow();
  });
});

describe('a damaged allowance list', () => {
  it('fails closed: the write is still refused, the user is told which file to fix, and nothing overwrites it', async () => {
    const env = await vaultWithMemory();
    const file = allowancesFile(env.vault);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, '{"version": 1, "key": "trunc');
    const value = githubToken(new SeededRandom(43), 'ghp');
    const refused = await agentWrites(env, path.join(env.memory, 'x.md'), `token ${value}\n`);
    expect(refused.isError).toBe(true);
    expect(findingRefs(refused.text)).toEqual([]);
    const listed = await env.dispatch('secrets:list-allowances', {});
    expect(listed).toMatchObject({ ok: false, error: { code: 'io_error', message: expect.stringContaining(file) } });
    expect(await env.dispatch('secrets:allow', { rule: 'github-pat', fingerprint: 'd'.repeat(64), where: 'x' })).toMatchObject({ ok: false, error: { code: 'io_error' } });
    expect(await fs.readFile(file, 'utf8')).toBe('{"version": 1, "key": "trunc');
    env.log.assertNoErrors();
  });
});

describe('the agent cannot mark a finding itself', () => {
  it('no agent tool writes the allowance file, even in a project that contains the vault and a user who allows every write', async () => {
    const env = await vaultWithMemory();
    const store = SecretAllowanceStore.forVault(env.vault);
    await store.allow({ rule: 'github-pat', fingerprint: 'b'.repeat(64), where: 'earlier' });
    const before = await fs.readFile(allowancesFile(env.vault), 'utf8');
    const target = allowancesFile(env.vault);
    const asked: string[] = [];
    const ctx: ToolContext = {
      // The user opened the vault itself as the project: the allowance file is inside the project folder.
      scope: await realScope({ project: env.vault, memory: [env.memory], readOnly: [] }),
      readState: new ReadState(),
      limits: defaultMemoryConfig.agent,
      beforeMemoryWrite: async () => null,
      permissionGate: { requestPermission: async (r) => (asked.push(r.path), 'allow_always') },
    };
    const tools = new Map(agentTools([env.memory]).map((t) => [t.name, t]));
    await runTool(tools.get('Read')!, { file_path: target }, ctx);
    const forged = JSON.stringify({ version: 1, key: 'c'.repeat(64), allowances: [] });
    const results = [
      await runTool(tools.get('Write')!, { file_path: target, content: forged }, ctx),
      await runTool(tools.get('Edit')!, { file_path: target, old_string: 'earlier', new_string: 'forged' }, ctx),
      await runTool(tools.get('Delete')!, { file_path: target }, ctx),
    ];
    for (const r of results) expect(r.isError, r.content).toBe(true);
    expect(asked).toEqual([]);
    expect(await fs.readFile(target, 'utf8')).toBe(before);
  });

  it('the memory write sandbox refuses the allowance file, also through a symlink inside a memory folder', async () => {
    const env = await vaultWithMemory();
    await SecretAllowanceStore.forVault(env.vault).allow({ rule: 'github-pat', fingerprint: 'b'.repeat(64), where: 'earlier' });
    await fs.symlink(path.join(env.vault, '.strata'), path.join(env.memory, 'state'));
    const viaLink = await checkMemoryWrite(env.memory, path.join(env.memory, 'state', 'secret-allowances.json'));
    expect(viaLink.ok).toBe(false);
    // A memory folder placed at the vault root (a misconfiguration) still cannot reach it.
    const atRoot = await checkMemoryWrite(env.vault, '.strata/secret-allowances.json');
    expect(atRoot).toMatchObject({ ok: false, reason: expect.stringMatching(/only be changed by the user/) });
  });
});
