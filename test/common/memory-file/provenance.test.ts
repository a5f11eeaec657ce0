import { describe, expect, it } from 'vitest';
import { withoutOriginLine } from '../../../common/memory-file/provenance';

describe('withoutOriginLine', () => {
  it('drops the originSessionId line of the frontmatter, top level or under metadata, and nothing in the body', () => {
    expect(withoutOriginLine('---\nname: A\noriginSessionId: 1234\ntype: user\n---\nbody originSessionId: x\n')).toBe('---\nname: A\ntype: user\n---\nbody originSessionId: x\n');
    expect(withoutOriginLine('---\nname: A\nmetadata:\n  type: user\n  originSessionId: 12\n---\nb\n')).toBe('---\nname: A\nmetadata:\n  type: user\n---\nb\n');
    expect(withoutOriginLine('no frontmatter\noriginSessionId: 1\n')).toBe('no frontmatter\noriginSessionId: 1\n');
  });
});
