import { describe, expect, it } from 'vitest';
import { memoryPromptSection } from '../../../../main/core/auto-memory/memory-prompt.js';
import { extractorPrompt } from '../../../../main/core/auto-memory/extractor-prompt.js';

describe('memoryPromptSection', () => {
  it('names the folder and covers the types, what not to save, the two-step save, verification and forgetting', () => {
    const text = memoryPromptSection(['/v/projects/p/memory', '/v/projects/p/memory/team']);
    expect(text).toContain('`/v/projects/p/memory`');
    expect(text).toContain('`/v/projects/p/memory/team`');
    for (const type of ['**user**', '**feedback**', '**project**', '**reference**']) expect(text).toContain(type);
    expect(text).toMatch(/## What not to save[\s\S]*Secrets/);
    expect(text).toMatch(/1\. Write the memory to its own file[\s\S]*2\. Add one line to `MEMORY\.md`/);
    expect(text).toMatch(/Before relying on one/);
    expect(text).toMatch(/"forget …", delete the memory file with the Delete tool and remove its line from MEMORY\.md/);
    expect(memoryPromptSection([])).toBe('');
  });
});

describe('extractorPrompt', () => {
  it('lists the manifest and asks for all reads in one turn and all writes in the next', () => {
    const text = extractorPrompt({ memoryDir: '/m', newMessageCount: 7, manifest: '- [user] a.md (2026-01-01T00:00:00.000Z): role', maxTurns: 5 });
    expect(text).toContain('most recent ~7 messages');
    expect(text).toContain('at most 5 turns');
    expect(text).toMatch(/first turn issue every Read[\s\S]*next turn issue every Write and Edit/);
    expect(text).toContain('## Existing memory files\n- [user] a.md');
    expect(extractorPrompt({ memoryDir: '/m', newMessageCount: 1, manifest: '', maxTurns: 5 })).not.toContain('Existing memory files');
  });

  it('asks for the frontmatter shape chosen in Settings', () => {
    const input = { memoryDir: '/m', newMessageCount: 1, manifest: '', maxTurns: 5 };
    expect(extractorPrompt(input)).toContain('frontmatter `name`, `description` (one specific line), `type`;');
    const newest = extractorPrompt({ ...input, shape: 'metadata' });
    expect(newest).toContain('`metadata:` with `type` under it');
    expect(newest).toContain('[[their-name]]');
  });
});
