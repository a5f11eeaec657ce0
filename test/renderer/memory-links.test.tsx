import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryLinks, VaultFile, VaultFileMeta } from '../../common/domain/vault';
import { createFakeApi, startFakeMain } from './support/fake-api';

afterEach(cleanup);

const SLUG = '-work-site';
const SESSION = '0b8f3c1e-8a8e-4d1c-9a55-1f2e3d4c5b6a';
const dir = `projects/${SLUG}/memory`;

const meta = (path: string, title: string, over: Partial<VaultFileMeta> = {}): VaultFileMeta => ({
  path,
  scope: 'project-memory',
  projectSlug: SLUG,
  title,
  description: null,
  type: 'project',
  size: 10,
  mtime: '2026-12-03T08:00:00.000Z',
  error: null,
  binary: false,
  tooLarge: false,
  ...over,
});

const body = [
  'Deploys go through [[staging-vpn]] first, see [[Release notes|the notes]].',
  '',
  'Literal `[[not-a-link]]` stays code.',
].join('\n');

const deploy: VaultFile = {
  meta: meta(`${dir}/deploy.md`, 'Deploy steps'),
  text: `---\nname: Deploy steps\ndescription: How we deploy\ntype: project\noriginSessionId: ${SESSION}\n---\n${body}\n`,
  frontmatter: { name: 'Deploy steps', description: 'How we deploy', type: 'project', originSessionId: SESSION },
  frontmatterError: null,
  body,
  hash: 'h1',
};

const links: MemoryLinks = {
  links: [
    { name: 'staging-vpn', path: `${dir}/vpn.md`, title: 'Staging VPN' },
    { name: 'Release notes', path: null, title: null },
  ],
  backlinks: [{ path: `${dir}/oncall.md`, title: 'On-call rota' }],
};

async function mount(files: VaultFileMeta[]) {
  const fake = createFakeApi({
    'vault:memory-links': ({ path }) => (path === deploy.meta.path ? links : { links: [], backlinks: [] }),
    'vault:read-file': ({ path }) => ({ ...deploy, meta: meta(path, path), text: 'Other memory.\n', frontmatter: null, body: 'Other memory.\n', hash: path }),
  });
  startFakeMain(fake.api);
  const { useStore } = await import('../../renderer/src/store');
  const { FilePane } = await import('../../renderer/src/features/vault/file-pane');
  useStore.getState().setProjects([{ path: '/work/site', name: 'site', openedAt: '2026-12-01T00:00:00.000Z', memorySlug: SLUG }]);
  useStore.getState().setFiles(files);
  useStore.getState().select(deploy.meta.path, 'file');
  useStore.getState().setOpen(deploy);
  render(<FilePane />);
  return { fake, useStore };
}

const transcript = meta(`projects/${SLUG}/${SESSION}.jsonl`, 'Plan the Friday deploy', { scope: 'transcript', type: null });

describe('a memory’s links, backlinks and the conversation that wrote it', () => {
  it('draws resolved [[links]] as links that open the memory, unresolved ones as not written yet, code as code', async () => {
    const { fake, useStore } = await mount([deploy.meta, transcript]);
    const resolved = await screen.findByRole('link', { name: 'staging-vpn' });
    expect(resolved.getAttribute('title')).toBe('Open Staging VPN');
    const missing = screen.getByText('the notes');
    expect(missing.closest('.wiki-link.missing')?.getAttribute('title')).toBe('Not written yet');
    expect(screen.queryByRole('link', { name: /the notes/ })).toBeNull();
    expect(screen.getByText('[[not-a-link]]').tagName).toBe('CODE');

    await userEvent.click(resolved);
    await waitFor(() => expect(useStore.getState().open?.meta.path).toBe(`${dir}/vpn.md`));
    expect(fake.calls.some((c) => c.channel === 'vault:read-file' && (c.request as { path: string }).path === `${dir}/vpn.md`)).toBe(true);
  });

  it('lists the memories that link here, each opening on a click', async () => {
    const { useStore } = await mount([deploy.meta, transcript]);
    const backlinks = await screen.findByRole('region', { name: 'Backlinks' });
    await userEvent.click(within(backlinks).getByRole('button', { name: 'On-call rota' }));
    await waitFor(() => expect(useStore.getState().open?.meta.path).toBe(`${dir}/oncall.md`));
  });

  it('opens the conversation that wrote the memory in Chat, by its title', async () => {
    const { fake, useStore } = await mount([deploy.meta, transcript]);
    expect(screen.getByText(/Written in conversation/).textContent).toBe('Written in conversation “Plan the Friday deploy”');
    await userEvent.click(screen.getByRole('button', { name: '“Plan the Friday deploy”' }));
    await waitFor(() => expect(fake.calls.find((c) => c.channel === 'chat:open-session')?.request).toEqual({ project: '/work/site', sessionId: SESSION }));
    expect(useStore.getState().view).toBe('chat');
  });

  it('says so when the conversation that wrote it is gone', async () => {
    await mount([deploy.meta]);
    expect(screen.getByText('Written in a conversation that is no longer here.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Plan the Friday deploy/ })).toBeNull();
  });
});
