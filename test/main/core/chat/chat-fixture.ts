import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { ChatUpdate, PermissionRequest } from '../../../../common/domain/chat.js';
import type { ProjectSettings } from '../../../../common/domain/settings.js';
import type { EventChannel, InvokeChannel, PayloadOf, RequestOf, ResponseOf } from '../../../../common/ipc/contract.js';
import type { Result } from '../../../../common/result.js';
import { API_KEY_ACCOUNT, MemoryCredentialStore } from '../../../../main/core/auth/credential-store.js';
import { createDispatcher } from '../../../../main/core/ipc/dispatcher.js';
import { createHandlers } from '../../../../main/core/ipc/handlers.js';
import { createServices, type Services } from '../../../../main/core/services.js';
import { startFakeAnthropic, type FakeAnthropic, type FakeAnthropicOptions } from '../../../fakes/anthropic-server/index.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';

export interface ChatFixture {
  services: Services;
  fake: FakeAnthropic;
  project: string;
  appData: string;
  events: { channel: EventChannel; payload: unknown }[];
  invoke<C extends InvokeChannel>(channel: C, request: RequestOf<C>): Promise<Result<ResponseOf<C>>>;
  /** Invokes and fails the test on an error result. */
  call<C extends InvokeChannel>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>>;
  /** Resolves with the first event (from now on) that matches. */
  next<E extends EventChannel>(channel: E, match?: (payload: PayloadOf<E>) => boolean, timeoutMs?: number): Promise<PayloadOf<E>>;
  /** Sends a prompt and waits until the session is idle or in error again. */
  turn(sessionId: string, text: string): Promise<ChatUpdate>;
  newSession(): Promise<string>;
  switches(patch: Partial<ProjectSettings>): Promise<void>;
  transcript(sessionId: string): Promise<Record<string, unknown>[]>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The app's engines as the shells build them (composition root + IPC handlers), a real project folder
 * and the strict fake Messages API on loopback. Extraction is off unless a test turns it on, so the
 * scripted queue answers only the main agent.
 */
export async function chatFixture(options: { fake?: FakeAnthropicOptions; apiKey?: string | null } = {}): Promise<ChatFixture> {
  const appData = await tempDir();
  const project = path.join(await tempDir(), 'project');
  await fs.mkdir(project, { recursive: true });
  const fake = await startFakeAnthropic({ strict: true, ...options.fake });
  const credentials = new MemoryCredentialStore();
  if (options.apiKey !== null) await credentials.set(API_KEY_ACCOUNT, options.apiKey ?? 'sk-ant-test');
  const events: ChatFixture['events'] = [];
  const waiters = new Set<(channel: EventChannel, payload: unknown) => void>();
  let log = testLogger();
  let services: Services;
  let dispatch: ReturnType<typeof createDispatcher>;

  const boot = async () => {
    log = testLogger();
    services = await createServices({ appDataDir: appData, shell: 'host', logger: log.logger, credentials, env: {}, watch: false });
    dispatch = createDispatcher(createHandlers(services, 'host'), log.logger);
    services.events.subscribe((channel, payload) => {
      events.push({ channel, payload });
      for (const w of [...waiters]) w(channel, payload);
    });
  };
  await boot();

  const f: ChatFixture = {
    get services() {
      return services;
    },
    fake,
    project,
    appData,
    events,
    invoke: (channel, request) => dispatch(channel, request) as never,
    async call(channel, request) {
      const r = await f.invoke(channel, request);
      if (!r.ok) throw new Error(`${channel} failed: ${r.error.code} ${r.error.message}`);
      return r.value;
    },
    next(channel, match = () => true, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no ${channel} event within ${timeoutMs} ms`));
        }, timeoutMs);
        const waiter = (c: EventChannel, payload: unknown) => {
          if (c !== channel || !match(payload as never)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(payload as never);
        };
        waiters.add(waiter);
      });
    },
    async turn(sessionId, text) {
      const settled = f.next('chat:did-update', (u) => u.sessionId === sessionId && (u.phase === 'idle' || u.phase === 'error'));
      await f.call('chat:send', { project, sessionId, text });
      return settled;
    },
    async newSession() {
      return (await f.call('chat:new-session', { project })).sessionId;
    },
    async switches(patch) {
      const settings = services.vault().settings.get();
      const current = settings.projects[project] ?? { autoMemory: true, extraction: true, teamSync: true, reviewMode: false, teamServerUrl: null, teamRepo: null, alwaysAllowWrites: false };
      await f.call('settings:set', { patch: { projects: { ...settings.projects, [project]: { ...current, ...patch } } } });
    },
    async transcript(sessionId) {
      const paths = await services.vault().sessions.paths(project);
      const text = await fs.readFile(paths.transcriptFile(sessionId), 'utf8');
      return text
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    },
    async restart() {
      await services.close();
      log.assertNoErrors();
      await boot();
    },
    async close() {
      await services.close();
      await fake.close();
      log.assertNoErrors();
    },
  };
  await f.call('settings:set', { patch: { baseUrl: fake.url, model: 'claude-test' } });
  await f.call('project:open', { path: project });
  await f.switches({ extraction: false });
  return f;
}

/** Every request the fake received was valid (the strict fake answers 400 otherwise). */
export function expectAllAccepted(fake: FakeAnthropic): void {
  expect(fake.requests.map((r) => r.rejected)).toEqual(fake.requests.map(() => null));
}

export const lastRequestText = (fake: FakeAnthropic): string => JSON.stringify(fake.requests.at(-1)?.body.messages ?? []);

export { lastUserText } from '../../../fakes/anthropic-server/index.js';

export type { PermissionRequest };
