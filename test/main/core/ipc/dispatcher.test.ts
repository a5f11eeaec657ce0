import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { slug } from '../../../../main/core/paths/slug.js';
import { createDispatcher } from '../../../../main/core/ipc/dispatcher.js';
import { createHandlers } from '../../../../main/core/ipc/handlers.js';
import { createServices } from '../../../../main/core/services.js';
import { AppFailure } from '../../../../common/result.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';

async function setup() {
  const log = testLogger();
  const services = await createServices({ appDataDir: await tempDir(), shell: 'cli', logger: log.logger });
  const handlers = createHandlers(services, 'host');
  return { log, services, handlers, dispatch: createDispatcher(handlers, log.logger) };
}

describe('the IPC dispatcher', () => {
  it('answers a valid request with ok and the handler value', async () => {
    const { dispatch } = await setup();
    const result = await dispatch('app:info', {});
    expect(result).toMatchObject({ ok: true, value: { name: 'Strata', shell: 'host' } });
  });

  it('refuses an unknown channel as invalid_request', async () => {
    const { dispatch } = await setup();
    expect(await dispatch('fs:delete-everything', {})).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });

  it('refuses a payload that does not match the schema, without calling the handler', async () => {
    const { dispatch, services } = await setup();
    const result = await dispatch('settings:set', { patch: { theme: 'purple' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(services.vault().settings.get().theme).toBe('system');
  });

  it('turns an AppFailure into its code and an unexpected error into internal, logging only the latter', async () => {
    const log = testLogger();
    const services = await createServices({ appDataDir: await tempDir(), shell: 'cli' });
    const handlers = createHandlers(services, 'host');
    handlers['project:list'] = () => {
      throw new AppFailure('not_found', 'gone');
    };
    handlers['app:info'] = () => {
      throw new Error('boom with /secret/path');
    };
    const dispatch = createDispatcher(handlers, log.logger);
    expect(await dispatch('project:list', {})).toEqual({ ok: false, error: { code: 'not_found', message: 'gone' } });
    const internal = await dispatch('app:info', {});
    expect(internal).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.stringify(internal)).not.toContain('/secret/path');
    expect(log.entries.filter((e) => e.level === 'error')).toHaveLength(1);
  });

  it('opens a project by its real path and reports a missing folder as not_found', async () => {
    const { dispatch } = await setup();
    const folder = await tempDir();
    expect(await dispatch('project:open', { path: folder })).toMatchObject({ ok: true, value: { path: folder } });
    expect(await dispatch('project:open', { path: `${folder}/nope` })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(await dispatch('project:list', {})).toMatchObject({ ok: true, value: [{ path: folder }] });
  });

  it('creates a memory in an opened folder\'s memory folder (its git root\'s), and wants exactly one of slug or folder', async () => {
    const { dispatch, services } = await setup();
    const repo = await tempDir();
    await fs.mkdir(path.join(repo, '.git'));
    await fs.mkdir(path.join(repo, 'web'));
    const memory = { team: false, fileName: 'stack.md', name: 'Stack', description: 'What the site runs on', type: 'project', body: 'Astro.' };
    const created = await dispatch('vault:create-memory', { ...memory, project: path.join(repo, 'web') });
    expect(created).toMatchObject({ ok: true, value: { meta: { path: `projects/${slug(repo)}/memory/stack.md` } } });
    expect(await fs.readFile(path.join(services.vault().root, 'projects', slug(repo), 'memory', 'MEMORY.md'), 'utf8')).toContain('(stack.md)');
    expect(await dispatch('vault:create-memory', { ...memory, fileName: 'b.md', project: repo, projectSlug: slug(repo) })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
    expect(await dispatch('vault:create-memory', { ...memory, fileName: 'c.md' })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });

  it('keeps the API key out of every answer', async () => {
    const { dispatch } = await setup();
    const result = await dispatch('credentials:set-api-key', { key: 'sk-ant-api03-secretsecret' });
    expect(result).toMatchObject({ ok: true, value: { apiKey: 'keychain', driver: 'memory' } });
    expect(JSON.stringify(result)).not.toContain('secretsecret');
  });
});

describe('settings:set', () => {
  it('changes only the keys in the patch', async () => {
    const { dispatch, services } = await setup();
    await dispatch('settings:set', { patch: { model: 'claude-x', baseUrl: 'http://127.0.0.1:1' } });
    await dispatch('settings:set', { patch: { theme: 'dark' } });
    expect(services.vault().settings.get()).toMatchObject({ model: 'claude-x', baseUrl: 'http://127.0.0.1:1', theme: 'dark' });
  });
});
