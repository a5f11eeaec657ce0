import { afterEach, describe, expect, it } from 'vitest';
import { api, installBridge, onConnectionState, startBridge } from '../../renderer/src/bridge';
import { createFakeApi } from './support/fake-api';

const appInfo = (name: string) => () => ({ name, version: '0.1.0', platform: 'linux', shell: 'electron' as const, vaultRoot: '/v', vaultState: 'ready' as const });

afterEach(() => {
  delete window.strata;
});

describe('the renderer bridge, injected at start', () => {
  it('refuses calls before a transport is started, with a message that says what to do', () => {
    expect(() => api.invoke).toThrow(/not started: call startBridge\(\)/);
  });

  it('reaches whichever transport was installed last, without reloading a module', async () => {
    installBridge(createFakeApi({ 'app:info': appInfo('first') }).api);
    const first = await api.invoke['app:info']({});
    installBridge(createFakeApi({ 'app:info': appInfo('second') }).api);
    const second = await api.invoke['app:info']({});
    expect([first.ok && first.value.name, second.ok && second.value.name]).toEqual(['first', 'second']);
  });

  it("starts on Electron's preload when the window has one, and reports the connection open", async () => {
    const fake = createFakeApi({ 'app:info': appInfo('preload') });
    window.strata = fake.api;
    startBridge();
    const states: string[] = [];
    const off = onConnectionState((state) => states.push(state));
    off();
    const info = await api.invoke['app:info']({});
    expect(info.ok && info.value.name).toBe('preload');
    expect(states).toEqual(['open']);
    const heard: unknown[] = [];
    const offEvent = api.on['settings:did-change']((settings) => heard.push(settings));
    fake.emit('settings:did-change', { theme: 'dark' } as never);
    offEvent();
    expect(heard).toHaveLength(1);
  });
});
