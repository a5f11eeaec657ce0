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
