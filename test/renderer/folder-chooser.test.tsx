import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { DirListing } from '../../common/domain/app';
import { err } from '../../common/result';
import { createFakeApi, startFakeMain } from './support/fake-api';

afterEach(cleanup);

const home: DirListing = { path: '/home/ana', parent: '/home', home: '/home/ana', entries: [] };

describe('the folder chooser', () => {
  it('keeps a path typed while the first listing is on its way, and shows why it cannot be opened', async () => {
    let answerFirst: (listing: DirListing) => void = () => undefined;
    startFakeMain(createFakeApi({
      'fs:list-dirs': ({ path }) =>
        path === undefined ? new Promise<DirListing>((resolve) => (answerFirst = resolve)) : err('not_found', `${path} does not exist`),
    }).api);
    const { FolderChooser } = await import('../../renderer/src/features/projects/folder-chooser');
    render(<FolderChooser title="Open a project folder" onPick={async () => true} onClose={() => undefined} />);
    const user = userEvent.setup();
    const input = screen.getByLabelText('Folder path');
    await user.type(input, '/home/ana/does-not-exist');
    // The slow first listing (the home folder) lands after the typing: the typed path stays.
    answerFirst(home);
    await screen.findByRole('button', { name: 'Home' });
    await new Promise((r) => setTimeout(r, 0));
    expect((input as HTMLInputElement).value).toBe('/home/ana/does-not-exist');
    await user.click(screen.getByRole('button', { name: 'Go' }));
    expect((await screen.findByRole('alert')).textContent).toBe('/home/ana/does-not-exist does not exist');
    expect((input as HTMLInputElement).value).toBe('/home/ana/does-not-exist');
  });
});
