import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { parse as parseYaml } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings, type Settings } from '../../common/domain/settings';
import type { VaultFile } from '../../common/domain/vault';
import { parseMemoryFile, splitFrontmatter } from '../../common/memory-file';
import { createFakeApi, startFakeMain } from './support/fake-api';

afterEach(cleanup);

// jsdom lays nothing out; the file pane's editor (CodeMirror) measures text ranges.
Range.prototype.getClientRects ??= () => ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as unknown as DOMRectList;
Range.prototype.getBoundingClientRect ??= () => new DOMRect(0, 0, 0, 0);

const path = 'projects/-work-site/memory/launch.md';
/** A memory as the newest Claude Code writes it: the type under `metadata`, dated. */
const text = '---\nname: launch-day\ndescription: When the launch is\nmetadata:\n  node_type: memory\n  type: project\n  originSessionId: 0b8f3c1e-8a8e-4d1c-9a55-1f2e3d4c5b6a\n  modified: 2026-12-01T08:00:00.000Z\n---\n\nFriday.\n';
const file: VaultFile = {
  meta: { path, scope: 'project-memory', projectSlug: '-work-site', title: 'launch-day', description: 'When the launch is', type: 'project', size: text.length, mtime: '2026-12-01T08:00:00.000Z', error: null, binary: false, tooLarge: false },
  text,
  frontmatter: { name: 'launch-day', description: 'When the launch is', type: 'project' },
  frontmatterError: null,
  body: '\nFriday.\n',
  hash: 'h1',
};

/** The file pane over `file`, with the memory shape chosen in Settings; resolves the text the form's edit saves. */
async function editType(shape: Settings['memoryShape'], type: string): Promise<string> {
  let saved: (text: string) => void = () => undefined;
  const written = new Promise<string>((resolve) => (saved = resolve));
  const fake = createFakeApi({
    'vault:memory-links': () => ({ links: [], backlinks: [] }),
    'vault:write-file': (request) => {
      saved(request.text);
      return { ...file, text: request.text, hash: 'h2' };
    },
  });
  startFakeMain(fake.api);
  const { useStore } = await import('../../renderer/src/store');
  const { FilePane } = await import('../../renderer/src/features/vault/file-pane');
  useStore.getState().setSettings({ ...defaultSettings(), memoryShape: shape });
  useStore.getState().setFiles([file.meta]);
  useStore.getState().select(path, 'file');
  useStore.getState().setOpen(file);
  render(<FilePane />);
  await userEvent.click(screen.getByRole('button', { name: 'Edit' }));
  const select = screen.getByLabelText('Type') as HTMLSelectElement;
  // The type under `metadata` is the memory's type, not "unknown".
  expect(select.value).toBe('project');
  await userEvent.selectOptions(select, type);
  return await written;
}

describe('the memory form writes the shape chosen in Settings', () => {
  it('metadata shape: the new type under metadata, no top-level type, the edit dated, provenance kept', async () => {
    const before = Date.now();
    const saved = await editType('metadata', 'user');
    const yaml = parseYaml(splitFrontmatter(saved)!.yaml) as { type?: string; metadata: Record<string, string> };
    expect(yaml.type).toBeUndefined();
    expect(yaml.metadata).toMatchObject({ node_type: 'memory', type: 'user', originSessionId: '0b8f3c1e-8a8e-4d1c-9a55-1f2e3d4c5b6a' });
    expect(Date.parse(yaml.metadata.modified!)).toBeGreaterThanOrEqual(before - 1000);
    expect(parseMemoryFile(saved)).toMatchObject({ type: 'user', shape: 'metadata', body: '\nFriday.\n' });
  });

  it('2.1.88 shape: the type at the top, where Claude Code 2.1.88 reads it, and none left under metadata', async () => {
    const saved = await editType('2.1.88', 'feedback');
    const yaml = parseYaml(splitFrontmatter(saved)!.yaml) as { type?: string; metadata: Record<string, string> };
    expect(yaml.type).toBe('feedback');
    expect(yaml.metadata.type).toBeUndefined();
    expect(parseMemoryFile(saved)).toMatchObject({ type: 'feedback', shape: '2.1.88' });
  });
});
