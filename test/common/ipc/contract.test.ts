import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { eventChannelNames, invokeChannelNames, invokeChannels } from '../../../common/ipc/contract.js';
import { createHandlers } from '../../../main/core/ipc/handlers.js';
import { createServices } from '../../../main/core/services.js';
import { tempDir } from '../../support/temp-dir.js';

describe('the IPC contract', () => {
  it('names invoke channels domain:verb and event channels domain:did-something', () => {
    for (const name of invokeChannelNames) expect(name).toMatch(/^[a-z]+:[a-z]+(-[a-z]+)*$/);
    for (const name of eventChannelNames) expect(name).toMatch(/^[a-z]+:did-[a-z]+(-[a-z]+)*$/);
  });

  it('gives every invoke channel a zod request schema', () => {
    for (const name of invokeChannelNames) expect(invokeChannels[name].request).toBeInstanceOf(z.ZodType);
  });

  it('has exactly one handler for every invoke channel and none extra', async () => {
    const services = await createServices({ appDataDir: await tempDir(), shell: 'cli' });
    const handlers = createHandlers(services, 'host');
    expect(Object.keys(handlers).sort()).toEqual([...invokeChannelNames].sort());
    for (const name of invokeChannelNames) expect(typeof handlers[name]).toBe('function');
  });

  it('rejects unknown fields in requests (schemas are strict)', () => {
    const parsed = invokeChannels['project:open'].request.safeParse({ path: '/tmp', extra: 1 });
    expect(parsed.success).toBe(false);
  });
});

describe('the contract refuses what main must never act on', () => {
  const parses = (channel: keyof typeof invokeChannels, payload: unknown) => invokeChannels[channel].request.safeParse(payload).success;

  it('takes only absolute paths where it asks for one: POSIX, a Windows drive, a UNC share', () => {
    for (const good of ['/home/dana/project', 'C:\\Users\\dana\\project', 'd:/work', '\\\\server\\share\\project']) expect(parses('project:open', { path: good }), good).toBe(true);
    for (const bad of ['relative/path', 'project', './project', '../etc', '~/project', 'C:relative', '\\\\', '/tmp/a\0b']) expect(parses('project:open', { path: bad }), bad).toBe(false);
    expect(parses('vault:set-root', { root: 'vault' })).toBe(false);
    expect(parses('fs:list-dirs', { path: 'here' })).toBe(false);
  });

  it('takes only http and https server URLs in settings', () => {
    for (const good of ['https://api.anthropic.com', 'http://127.0.0.1:8080/v1']) {
      expect(parses('settings:set', { patch: { baseUrl: good } }), good).toBe(true);
      expect(parses('settings:set', { patch: { teamServerUrl: good } }), good).toBe(true);
    }
    for (const bad of ['file:///etc/passwd', 'data:text/plain,hi', 'javascript:alert(1)', 'ftp://example.com', 'ws://127.0.0.1:1']) {
      expect(parses('settings:set', { patch: { baseUrl: bad } }), bad).toBe(false);
      expect(parses('settings:set', { patch: { teamServerUrl: bad } }), bad).toBe(false);
      expect(parses('settings:set', { patch: { projects: { '/p': { teamServerUrl: bad } } } }), bad).toBe(false);
    }
    expect(parses('settings:set', { patch: { baseUrl: null } })).toBe(true);
  });
});
