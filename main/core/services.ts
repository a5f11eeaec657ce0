import os from 'node:os';
import path from 'node:path';
import { mkdir, realpath } from 'node:fs/promises';
import { Emitter, type Event } from '../../common/async/event.js';
import type { Project, VaultRootInfo } from '../../common/domain/app.js';
import type { Settings } from '../../common/domain/settings.js';
import { appVersion } from './app-version.js';
import { EventHub } from './events.js';
import { systemClock, silentLogger, type Clock, type CredentialStore, type Logger } from './ports.js';
import { ProjectRegistry } from './projects/index.js';
import { VaultRootPointer } from './vault/index.js';
import { MemoryCredentialStore } from './auth/index.js';
import { sweepIncognitoLeftovers, TranscriptStore } from './transcripts/index.js';
import { SessionCatalog, type SessionsChange } from './chat/index.js';
import { ChatRunner, ConversationAgent, createClients, MemoryChanges, projectSwitches, resolveApiKey, sideQueryOf } from './chat/index.js';
import { ReadState } from './tools/index.js';
import { VaultMemorySource } from './auto-memory/index.js';
import { TeamService } from './team-sync/index.js';
import type { AgentEnvironment } from './chat/index.js';
import type { VaultServices } from './vault-services.js';
import { vaultCore } from './vault-engines.js';

/** Everything the composition root needs from its caller (Electron entry, host, CLI, tests). */
export interface ServicesConfig {
  /** The app's own data folder: the default vault root and where the vault choice is kept. */
  appDataDir: string;
  /** A vault root forced for this process (`--vault DIR`); not persisted. */
  vaultRoot?: string;
  shell: 'electron' | 'host' | 'cli';
  credentials?: CredentialStore;
  clock?: Clock;
  logger?: Logger;
  env?: NodeJS.ProcessEnv;
  homeDir?: string;
  /** Watch the vault for changes (the app does; one-shot CLI commands need not). Default: true. */
  watch?: boolean;
  /** Where incognito conversations are kept until quit, and crash leftovers swept at start. Default: the system's temp folder. */
  tempDir?: string;
}

export type { VaultServices } from './vault-services.js';
export {
  appVaultRoot,
  createVaultEngines,
  openCredentialStore,
  readVaultMemoryConfig,
  secretAllowances,
  sessionNotesUpdater,
  type VaultEngines,
} from './vault-engines.js';

export interface Services {
  readonly config: Required<Omit<ServicesConfig, 'vaultRoot'>> & { vaultRoot?: string };
  /** What the transports forward to renderers (contract events); engines do not listen to it. */
  readonly events: EventHub;
  /** The current vault's settings were saved, or a vault switch brought the other vault's. */
  readonly onDidChangeSettings: Event<Settings>;
  /** A project was opened or forgotten in the current vault, or a vault switch brought the other vault's list. */
  readonly onDidChangeProjects: Event<Project[]>;
  /** A project's conversations changed in the current vault (a turn, a rename, a delete or its undo). */
  readonly onDidChangeSessions: Event<SessionsChange>;
  /** The vault moved (`switchVault`); the vault-bound engines are rebuilt. */
  readonly onDidSwitchVault: Event<VaultRootInfo>;
  readonly credentials: CredentialStore;
  readonly version: string;
  /** Team memory sync of the open projects (docs/memory.md#team-sync). */
  readonly team: TeamService;
  vault(): VaultServices;
  /** Points the vault at `root` (null = default) and rebuilds the vault-bound engines. */
  switchVault(root: string | null): Promise<VaultServices>;
  close(): Promise<void>;
}

async function openVault(
  root: string,
  isDefault: boolean,
  options: { clock: Clock; logger: Logger; watch: boolean; events: EventHub; credentials: CredentialStore; env: NodeJS.ProcessEnv; shell: ServicesConfig['shell']; tempDir: string },
): Promise<VaultServices> {
  const { clock, logger } = options;
  await mkdir(root, { recursive: true });
  const projects = new ProjectRegistry(root, clock);
  const [{ settings, memoryConfig, files }] = await Promise.all([vaultCore(root, options), projects.load()]);
  const transcripts = new TranscriptStore({ vaultRoot: root, clock, logger, trashDays: memoryConfig().vault.trashDays, tempDir: options.tempDir });
  const sessions = new SessionCatalog(root, transcripts, memoryConfig);
  // Deleted conversations stay restorable for `trashDays`; older ones go at start-up.
  void transcripts.purgeTrash().catch((error: unknown) => logger.warn('could not empty the conversation trash', { error: (error as Error).message }));
  const agentEnv: AgentEnvironment = {
    vaultRoot: root,
    settings: () => settings.get(),
    config: memoryConfig,
    credentials: options.credentials,
    env: options.env,
    environmentFirst: options.shell === 'cli',
  };
  const chat = new ChatRunner({
    env: agentEnv,
    vaultFiles: files,
    settings,
    transcripts,
    catalog: sessions,
    clock,
    logger,
    memoryFiles: new VaultMemorySource(files),
  });
  const offChanges = files.onChanges((changes) => options.events.emit('vault:did-change-files', changes));
  const offState = files.onState((state) => options.events.emit('vault:did-change-state', { root, state }));
  const offNotes = chat.engines.notesView.onDidChange((notes) => options.events.emit('notes:did-change', notes));
  const offChat = [
    chat.onDidUpdate((update) => options.events.emit('chat:did-update', update)),
    chat.onDidStream((delta) => options.events.emit('chat:did-stream', delta)),
    chat.onDidRequestPermission((request) => options.events.emit('chat:did-request-permission', request)),
    chat.onDidChangeProposals((change) => options.events.emit('memory:did-change-proposals', change)),
  ];
  // The opened projects' own CLAUDE.md files are vault files too (docs/architecture.md#data-on-disk); re-scanned
  // whenever a project is opened or forgotten.
  void files.setProjects(projects.list());
  const offProjects = projects.onDidChangeList((list) => void files.setProjects(list));
  // The warm-up below comes before the watcher's own first scan of every file, so a question asked
  // meanwhile does not wait on both.
  const letWatcherGo = options.watch ? files.holdWatching() : () => undefined;
  // Opening scans the whole vault: start it now, let callers that need the catalog await `ready`.
  const ready = files.open().catch((error: unknown) => {
    logger.warn('the vault could not be opened', { root, error: (error as Error).message });
  });
  // docs/memory.md#recall "Reading the folder": once searchable, the app builds recall's index of its most
  // recent project in slices, so the first question there finds it built instead of waiting half a second.
  const warming = new AbortController();
  const warmed = options.watch
    ? ready
        .then(() => warmRecall(warming.signal))
        .catch((error: unknown) => logger.warn('could not prepare recall', { error: (error as Error).message }))
        .finally(letWatcherGo)
    : Promise.resolve();
  async function warmRecall(signal: AbortSignal): Promise<void> {
    const project = projects.list()[0];
    if (!project || signal.aborted || files.state !== 'ready' || !projectSwitches(settings.get(), project.path).autoMemory) return;
    const dir = (await sessions.paths(project.path)).memoryDir;
    const memoryDir = await realpath(dir).catch(() => dir);
    await chat.engines.recallFor(memoryDir).warm(signal);
  }
  return {
    root,
    isDefault,
    settings,
    projects,
    memoryConfig,
    files,
    ready,
    transcripts,
    sessions,
    chat,
    agentEnv,
    async recall(project, question, { offline = false, signal } = {}) {
      // The recall engine a chat turn in this project uses, asked without a conversation: nothing seen yet.
      const paths = await sessions.paths(project);
      const memoryDir = await realpath(paths.memoryDir).catch(() => paths.memoryDir);
      const keyed = !offline && (await resolveApiKey(agentEnv)) !== null;
      const sideQuery = keyed ? sideQueryOf(createClients(agentEnv).small) : null;
      const result = await chat.engines.recallFor(memoryDir).recall({ query: question, seen: new Set(), sessionBytesUsed: 0, offline: !keyed, sideQuery, signal });
      if (!offline && !keyed && result.explain.localBecause === 'offline') result.explain.localBecause = 'no API key';
      return result;
    },
    async oneShotAgent(project, sessionId) {
      const changes = new MemoryChanges(root);
      const agent = await ConversationAgent.create({ env: agentEnv, project, sessionId, readState: new ReadState(), changes });
      return { agent, changes };
    },
    async close() {
      warming.abort();
      await warmed;
      await chat.close();
      // Incognito transcripts last until the app quits (docs/memory.md#pause-and-incognito).
      transcripts.incognito.discardAll();
      offChanges();
      offState();
      offNotes();
      for (const off of offChat) off();
      offProjects();
      await ready;
      await files.close();
    },
  };
}

/** The one composition root (docs/architecture.md): builds every engine from one config object. */
export async function createServices(input: ServicesConfig): Promise<Services> {
  const config = {
    ...input,
    credentials: input.credentials ?? new MemoryCredentialStore(),
    clock: input.clock ?? systemClock,
    logger: input.logger ?? silentLogger,
    env: input.env ?? process.env,
    homeDir: input.homeDir ?? os.homedir(),
    watch: input.watch ?? input.shell !== 'cli',
    tempDir: input.tempDir ?? os.tmpdir(),
  };
  // A crash leaves its incognito transcripts in the temp folder; they go at the app's next start
  // (docs/memory.md#pause-and-incognito). A one-shot CLI command leaves that to the app.
  if (config.shell !== 'cli') {
    void sweepIncognitoLeftovers(config.tempDir).then(
      (removed) => removed.length > 0 && config.logger.info('removed incognito conversations a crash left behind', { count: removed.length }),
      (error: unknown) => config.logger.warn('could not sweep incognito leftovers', { error: (error as Error).message }),
    );
  }
  const pointer = new VaultRootPointer(config.appDataDir);
  const initial = config.vaultRoot
    ? { root: path.resolve(config.vaultRoot), isDefault: false }
    : await pointer.read();
  const events = new EventHub();
  const settingsChanged = new Emitter<Settings>();
  const projectsChanged = new Emitter<Project[]>();
  const vaultSwitched = new Emitter<VaultRootInfo>();
  const sessionsChanged = new Emitter<SessionsChange>();
  // The one place these contract events are emitted (docs/architecture.md#events).
  settingsChanged.event((settings) => events.emit('settings:did-change', settings));
  projectsChanged.event((list) => events.emit('project:did-change-list', list));
  vaultSwitched.event((info) => events.emit('vault:did-change-root', info));
  sessionsChanged.event((change) => events.emit('chat:did-change-sessions', change));
  /** Relays the current vault's own events as the services' (their listeners outlive a vault switch). */
  const relay = (vault: VaultServices) => {
    const offs = [
      vault.settings.onDidChange((s) => settingsChanged.fire(s)),
      vault.projects.onDidChangeList((l) => projectsChanged.fire(l)),
      vault.sessions.onDidChangeSessions((c) => sessionsChanged.fire(c)),
    ];
    return () => offs.forEach((off) => off());
  };
  const vaultOptions = { clock: config.clock, logger: config.logger, watch: config.watch, events, credentials: config.credentials, env: config.env, shell: config.shell, tempDir: config.tempDir };
  let current = await openVault(initial.root, initial.isDefault, vaultOptions);
  let unrelay = relay(current);
  // The app pulls every team-enabled project at start (docs/memory.md#team-sync); a one-shot CLI command does not.
  const team = new TeamService({
    vault: () => current,
    onDidChangeSettings: settingsChanged.event,
    onDidSwitchVault: vaultSwitched.event,
    credentials: config.credentials,
    clock: config.clock,
    logger: config.logger,
    openAtStart: config.shell !== 'cli',
  });
  team.onDidChangeStatus((status) => events.emit('team:did-change-status', status));

  return {
    config,
    events,
    onDidChangeSettings: settingsChanged.event,
    onDidChangeProjects: projectsChanged.event,
    onDidChangeSessions: sessionsChanged.event,
    onDidSwitchVault: vaultSwitched.event,
    credentials: config.credentials,
    version: appVersion(),
    team,
    vault: () => current,
    async switchVault(root) {
      const next = await pointer.write(root);
      const previous = current;
      current = await openVault(next.root, next.isDefault, vaultOptions);
      unrelay();
      unrelay = relay(current);
      await previous.close();
      vaultSwitched.fire({ root: current.root, isDefault: current.isDefault });
      settingsChanged.fire(current.settings.get());
      projectsChanged.fire(current.projects.list());
      return current;
    },
    async close() {
      unrelay();
      await team.close();
      await current.close();
    },
  };
}
