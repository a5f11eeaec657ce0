import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startFakeAnthropic, type FakeAnthropic, type FakeAnthropicOptions } from '../../fakes/anthropic-server/index.js';
import { tempDir } from '../../support/temp-dir.js';
import { closeAfterEach, startApp, type TestApp } from './app.js';
import { openPage, useBrowser } from './browser.js';
import { prepareChat, TEST_API_KEY } from './chat-app.js';

/** A tab on the app, with the page errors it has seen so far. */
export interface ChatTab {
  page: Page;
  errors: string[];
}

/** What `start` made: the project folder `site` and the app data folder a restart reuses. */
export interface ChatFolders {
  project: string;
  appData: string;
}

/** A tab showing a new conversation in `site`, and what it runs on. */
export interface OpenedChat extends ChatTab, ChatFolders {
  fake: FakeAnthropic;
}

/** Answers a request when nothing is enqueued on the fake (its auto mode). */
export type Responder = NonNullable<FakeAnthropicOptions['respond']>;

/** The chat e2e fixture of one describe block: see `useChatApp`. */
export interface ChatFixture {
  /** The file's one Chromium. */
  browser: () => Browser;
  /** The app the running test started (throws before `start`). */
  app: () => TestApp;
  /** The fake Messages API the running test started (throws before `start`). */
  fake: () => FakeAnthropic;
  /** Starts the strict fake (answering with `respond` when nothing is enqueued) and the app on new temp folders, chatting in `site`. */
  start: (respond?: Responder) => Promise<ChatFolders>;
  /** Closes the app and starts a new host on the same app data: the app as the next day finds it. */
  restart: () => Promise<TestApp>;
  /** A new tab on the app with the project `site` clicked; `name` names its evidence in test-results/ when the test fails. */
  openTab: (name: string) => Promise<ChatTab>;
  /** `start`, then a tab with `site`'s new conversation on screen. */
  open: (name: string, respond?: Responder) => Promise<OpenedChat>;
}

/**
 * The chat in Chromium via `strata host`, for the tests of one describe block: one Chromium per file,
 * and per test the real engines, the real SDK and the strict fake Messages API on loopback (every
 * request the app sends must be one it accepts), on fresh temp folders with background extraction off
 * (chat-app.ts). After each test the app closes, then the fake. `projectPrefix` names the temp folder
 * the project `site` is made in.
 */
export function useChatApp(projectPrefix: string): ChatFixture {
  const browser = useBrowser();
  let app: TestApp | null = null;
  let fake: FakeAnthropic | null = null;
  let appData = '';
  closeAfterEach(() => [app, fake]);
  const startHost = () => startApp(appData, { env: { ANTHROPIC_API_KEY: TEST_API_KEY } });
  const running = <T>(thing: T | null, what: string): T => {
    if (!thing) throw new Error(`the test has not started the ${what}: call start() or open() first`);
    return thing;
  };

  const fixture: ChatFixture = {
    browser,
    app: () => running(app, 'app'),
    fake: () => running(fake, 'fake Messages API'),
    async start(respond) {
      fake = await startFakeAnthropic({ strict: true, respond });
      appData = await tempDir();
      const project = path.join(await tempDir(projectPrefix), 'site');
      app = await startHost();
      await prepareChat(app.services, { project, baseUrl: fake.url });
      return { project, appData };
    },
    async restart() {
      await fixture.app().close();
      app = await startHost();
      return app;
    },
    async openTab(name) {
      const tab = await openPage(browser(), fixture.app().host.url, name);
      await tab.page.getByRole('region', { name: 'Projects' }).getByRole('button', { name: 'site', exact: true }).click();
      return tab;
    },
    async open(name, respond) {
      const folders = await fixture.start(respond);
      const tab = await fixture.openTab(name);
      await tab.page.getByRole('heading', { name: 'New conversation', level: 1 }).waitFor();
      return { ...tab, ...folders, fake: fixture.fake() };
    },
  };
  return fixture;
}
