import { describe, expect, it } from 'vitest';
import type { IpcMainInvokeEvent } from 'electron';
import { bindIpcRouter, isTrustedSender, type SenderPolicy } from '../../../main/electron/ipc-router.js';
import { invokeChannelNames } from '../../../common/ipc/contract.js';
import { ok } from '../../../common/result.js';
import { testLogger } from '../../support/test-logger.js';

/** A stand-in for Electron's ipcMain: records handlers so the test can call them like Electron would. */
function fakeIpcMain() {
  const handlers = new Map<string, (event: IpcMainInvokeEvent, payload: unknown) => unknown>();
  return {
    handlers,
    handle: (channel: string, fn: (event: IpcMainInvokeEvent, payload: unknown) => unknown) => {
      handlers.set(channel, fn);
    },
    removeHandler: (channel: string) => {
      handlers.delete(channel);
    },
  };
}

function fakeEvent(options: { id?: number; url?: string; subframe?: boolean } = {}): IpcMainInvokeEvent {
  const mainFrame = { url: options.url ?? 'app://strata/index.html' };
  const senderFrame = options.subframe ? { url: mainFrame.url } : mainFrame;
  return { sender: { id: options.id ?? 1, mainFrame }, senderFrame } as unknown as IpcMainInvokeEvent;
}

const policy: SenderPolicy = {
  trustedIds: new Set([1]),
  allowedUrls: (url) => url.protocol === 'app:' && url.host === 'strata',
};

describe('the Electron IPC router', () => {
  it('registers one handler per contract channel and removes them all on dispose', () => {
    const ipc = fakeIpcMain();
    const dispose = bindIpcRouter(ipc, async () => ok(null), policy, testLogger().logger);
    expect([...ipc.handlers.keys()].sort()).toEqual([...invokeChannelNames].sort());
    dispose();
    expect(ipc.handlers.size).toBe(0);
  });

  it('passes a trusted main-frame request from app://strata to the dispatcher', async () => {
    const ipc = fakeIpcMain();
    const seen: unknown[] = [];
    bindIpcRouter(ipc, async (channel, payload) => (seen.push([channel, payload]), ok('yes')), policy, testLogger().logger);
    const result = await ipc.handlers.get('app:info')!(fakeEvent(), {});
    expect(result).toEqual({ ok: true, value: 'yes' });
    expect(seen).toEqual([['app:info', {}]]);
  });

  it.each([
    ['a subframe', { subframe: true }],
    ['a window the app did not create', { id: 7 }],
    ['a page from another origin', { url: 'https://evil.example/' }],
    ['a file:// page', { url: 'file:///tmp/x.html' }],
  ])('refuses %s with permission_denied and never dispatches', async (_label, options) => {
    const ipc = fakeIpcMain();
    const log = testLogger();
    let called = false;
    bindIpcRouter(ipc, async () => ((called = true), ok(null)), policy, log.logger);
    const result = await ipc.handlers.get('settings:get')!(fakeEvent(options), {});
    expect(result).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
    expect(called).toBe(false);
  });

  it('treats a missing sender frame as untrusted', () => {
    const event = { sender: { id: 1, mainFrame: {} }, senderFrame: null } as unknown as IpcMainInvokeEvent;
    expect(isTrustedSender(event, policy)).toBe(false);
  });
});
