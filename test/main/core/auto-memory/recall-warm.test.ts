import { promises as fs, realpathSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { MemoryRecall } from '../../../../main/core/auto-memory/memory-recall.js';
import { VaultMemorySource } from '../../../../main/core/auto-memory/memory-source.js';
import { createServices, type Services } from '../../../../main/core/services.js';
import { prepareChat, TEST_API_KEY } from '../../../e2e/support/chat-app.js';
import { startFakeAnthropic, text, type FakeAnthropic } from '../../../fakes/anthropic-server/index.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';
import { memoryText, openVault, waitFor } from '../vault/vault-helpers.js';
import { writeWalrusMemories } from './walrus-memories.js';

let services: Services | null = null;
let fake: FakeAnthropic | null = null;
afterEach(async () => {
  await services?.close();
  services = null;
  await fake?.close();
  fake = null;
});

const recallOf = (memoryDir: string, source: VaultMemorySource) =>
  new MemoryRecall({ memoryDir, config: defaultMemoryConfig.autoMemory, clock: { now: () => Date.now() }, source });

describe('recall’s warm-up (docs/memory.md#recall "Reading the folder")', () => {
  it('builds the most recent project’s index once the app’s vault is searchable, so its first question reads nothing', async () => {
    const appDataDir = await tempDir('strata-warm-app-');
    const vaultRoot = await tempDir('strata-warm-vault-');
    const project = await tempDir('strata-warm-project-');
    const cli = await createServices({ appDataDir, vaultRoot, shell: 'cli', logger: testLogger().logger });
    const opened = await cli.vault().projects.open(project);
    const dir = (await cli.vault().sessions.paths(opened.path)).memoryDir;
    await writeWalrusMemories(dir, 30);
    const memoryDir = realpathSync(dir);
    await cli.close();

    services = await createServices({ appDataDir, vaultRoot, shell: 'host', logger: testLogger().logger });
    const vault = services.vault();
    await vault.ready;
    const recall = vault.chat.engines.recallFor(memoryDir);
    await waitFor(() => recall.lastScan.read === 30, 'the warm-up to read the folder', 5_000);
    const result = await vault.recall(opened.path, 'what is walrus detail 7', { offline: true });
    expect(result.memories.map((m) => m.relPath)).toContain('note_7.md');
    expect(recall.lastScan).toEqual({ read: 0, reused: 30 });
  });

  it('still sees a file edited after the warm-up and before the watcher runs', async () => {
    const root = await tempDir('strata-warm-edit-');
    const memoryDir = path.join(root, 'projects', '-work-app', 'memory');
    await writeWalrusMemories(memoryDir, 5);
    const { vault } = await openVault(root, { watch: false });
    const recall = recallOf(memoryDir, new VaultMemorySource(vault));
    await recall.warm();
    await fs.writeFile(path.join(memoryDir, 'note_2.md'), memoryText('Note 2', 'The walrus project moved to the Oslo office', 'Oslo.'));
    const result = await recall.recall({ query: 'which office in Oslo', seen: new Set(), sessionBytesUsed: 0, offline: true });
    expect(result.memories.map((m) => m.relPath)).toEqual(['note_2.md']);
    expect(recall.lastScan.read).toBe(1);
  });

  it('answers a question asked while it builds the index with the whole folder, the first time and the next', async () => {
    const root = await tempDir('strata-warm-turn-');
    const memoryDir = path.join(root, 'projects', '-work-app', 'memory');
    await writeWalrusMemories(memoryDir, 2000);
    const { vault } = await openVault(root);
    const recall = recallOf(memoryDir, new VaultMemorySource(vault));
    const warming = recall.warm();
    // The folder is read: the warm-up is at its first slice of the index.
    while (recall.lastScan.read !== 2000) await new Promise((resolve) => setImmediate(resolve));
    // As the chat asks: told the count, recall gives the event loop a turn before the ranking.
    const ask = () => recall.recall({ query: 'what is walrus detail 0', seen: new Set(), sessionBytesUsed: 0, offline: true, onFiles: () => undefined });
    // note_0 is the oldest: the last file a slice of the warm-up adds.
    expect((await ask()).memories[0]?.relPath).toBe('note_0.md');
    await warming;
    expect((await ask()).memories[0]?.relPath).toBe('note_0.md');
  });

  it('keeps the vault watcher’s first scan off until the first answer starts, then starts it', async () => {
    const isSelector = (r: { system?: unknown }) => JSON.stringify(r.system ?? '').includes('You pick memory files');
    let watchingAtFirstByte: boolean | null = null;
    fake = await startFakeAnthropic({
      strict: true,
      // The answer takes half a second to start: long enough for a small vault's watcher to be running, were it not held.
      respond: (r) => (isSelector(r) ? text('{"selected_memories": []}') : { ...text('Noted.'), firstByteDelayMs: 500 }),
    });
    const appDataDir = await tempDir('strata-hold-app-');
    const vaultRoot = await tempDir('strata-hold-vault-');
    const project = await tempDir('strata-hold-project-');
    const cli = await createServices({ appDataDir, vaultRoot, shell: 'cli', logger: testLogger().logger, env: {} });
    await prepareChat(cli, { project, baseUrl: fake.url });
    const opened = cli.vault().projects.list()[0]!.path;
    await writeWalrusMemories((await cli.vault().sessions.paths(opened)).memoryDir, 30);
    await cli.close();

    services = await createServices({ appDataDir, vaultRoot, shell: 'host', logger: testLogger().logger, env: { ANTHROPIC_API_KEY: TEST_API_KEY } });
    const vault = services.vault();
    await vault.ready;
    const { sessionId } = await vault.sessions.create(opened);
    const firstToken = new Promise<void>((resolve) => {
      const off = vault.chat.onDidStream((delta) => {
        if (delta.sessionId !== sessionId) return;
        off();
        watchingAtFirstByte = vault.files.catalogLive;
        resolve();
      });
    });
    await vault.chat.session(opened, sessionId).send('what is walrus detail 3');
    const watching = vault.files.whenWatching();
    await firstToken;
    expect(watchingAtFirstByte).toBe(false);
    await vault.chat.session(opened, sessionId).idle();
    await watching;
    expect(vault.files.catalogLive).toBe(true);
  });
});
