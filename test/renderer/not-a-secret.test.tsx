import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { formatFindingRef, type SecretAllowanceView } from '../../common/domain/secrets';
import { err } from '../../common/result';
import type { ChatItem } from '../../common/domain/chat';
import type { TeamStatus } from '../../common/domain/team';
import { createFakeApi, startFakeMain } from './support/fake-api';
import { syncedStatus } from './support/team-status';

/** "Not a secret" in the renderer: the chat's refused-write card, the team panel and the Settings list. */
afterEach(cleanup);

// Assembled, so the repository holds no key-shaped literal.
const value = ['ghp', 'Q4mZ8tLr2Vx7Kp9Nw3Hc6Jd1Fs5Gb0Ya8Ue2'].join('_');
const fingerprint = 'ab'.repeat(32);
const ruleKinds = { 'github-pat': 'GitHub personal access token', 'generic-password': 'password' };

describe('"Not a secret"', () => {
  it('on a refused memory write: marks the finding by rule and fingerprint, and never shows the value', async () => {
    const fake = createFakeApi({ 'secrets:rule-kinds': () => ruleKinds, 'secrets:allow': ({ rule, where }) => [{ id: 'x', rule, where, place: null, createdAt: '2026-12-04T10:00:00.000Z' }] });
    startFakeMain(fake.api);
    const { ToolCard } = await import('../../renderer/src/features/chat/tool-card');
    const item: Extract<ChatItem, { kind: 'tool' }> = {
      kind: 'tool',
      id: 't1',
      name: 'Write',
      summary: 'memory/ci.md',
      input: { file_path: '/v/projects/p/memory/ci.md', content: `token ${value}` },
      status: 'error',
      result: `Refused: rule github-pat on line 1 ${formatFindingRef('github-pat', fingerprint)} — leave the secret out and write the memory without it.`,
    };
    const { container } = render(<ToolCard item={item} project="/p" sessionId="s1" />);
    // The kind of secret in words, never the rule's id.
    await screen.findByText(/holds what looks like a GitHub personal access token\./);
    expect(container.textContent).not.toContain('github-pat');
    expect(container.textContent).not.toContain(value);
    expect(container.textContent).not.toContain(fingerprint);
    await userEvent.click(screen.getByRole('button', { name: 'Not a secret' }));
    await screen.findByText(/Marked a GitHub personal access token as not a secret/);
    expect(fake.calls.filter((c) => c.channel === 'secrets:allow').map((c) => c.request)).toEqual([
      { rule: 'github-pat', fingerprint, where: 'memory write: /v/projects/p/memory/ci.md' },
    ]);
  });

  it('marks the value on every refused row of it, says it is this value only, and saves the refused write on Save it now', async () => {
    let saves = 0;
    const fake = createFakeApi({
      'secrets:allow': ({ rule, where }) => [{ id: 'x', rule, where, place: null, createdAt: '2026-12-04T10:00:00.000Z' }],
      'chat:save-refused-write': () => (++saves === 1 ? err('invalid_request', 'Not saved: memory is paused in this project. Resume memory, then save it.') : { saved: true as const }),
    });
    startFakeMain(fake.api);
    const { ToolCard } = await import('../../renderer/src/features/chat/tool-card');
    const refused = (id: string, file: string): Extract<ChatItem, { kind: 'tool' }> => ({
      kind: 'tool',
      id,
      name: 'Write',
      summary: file,
      input: { file_path: `/v/projects/p/memory/${file}` },
      status: 'error',
      result: `Refused: rule github-pat on line 1 ${formatFindingRef('github-pat', fingerprint)} — leave the secret out and write the memory without it.`,
    });
    const first = render(<ToolCard item={refused('t1', 'ci.md')} project="/p" sessionId="s1" />);
    const second = render(<ToolCard item={refused('t2', 'MEMORY.md')} project="/p" sessionId="s1" />);
    expect(screen.getAllByRole('button', { name: 'Not a secret' })).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Save it now' })).toBeNull();

    await userEvent.click(within(first.container).getByRole('button', { name: 'Not a secret' }));
    // The other row of the same value no longer offers a stale link: it is marked too.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Not a secret' })).toBeNull());
    expect(second.container.textContent).toMatch(/Marked a (GitHub personal access token|possible secret) as not a secret: this value only/);
    expect(fake.calls.filter((c) => c.channel === 'secrets:allow')).toHaveLength(1);

    // A save main refuses says why, in words, and can be tried again.
    await userEvent.click(within(first.container).getByRole('button', { name: 'Save it now' }));
    await within(first.container).findByText(/memory is paused in this project/);
    await userEvent.click(within(first.container).getByRole('button', { name: 'Try again' }));
    await within(first.container).findByText(/Saved\. The memory is below/);
    expect(fake.calls.filter((c) => c.channel === 'chat:save-refused-write').map((c) => c.request)).toEqual([
      { project: '/p', sessionId: 's1', toolUseId: 't1' },
      { project: '/p', sessionId: 's1', toolUseId: 't1' },
    ]);
    expect(document.body.textContent).not.toContain(fingerprint);
  });

  it('offers nothing on a refusal without a finding (a sandbox refusal) or a successful write', async () => {
    startFakeMain(createFakeApi({}).api);
    const { ToolCard } = await import('../../renderer/src/features/chat/tool-card');
    const base = { kind: 'tool' as const, id: 't', name: 'Write', summary: 'x', input: {} };
    render(<ToolCard item={{ ...base, status: 'error', result: 'Refused: `..` segments are not allowed in memory paths.' }} project="/p" sessionId="s1" />);
    render(<ToolCard item={{ ...base, id: 't2', status: 'done', result: `ok ${formatFindingRef('github-pat', fingerprint)}` }} project="/p" sessionId="s1" />);
    expect(screen.queryByRole('button', { name: 'Not a secret' })).toBeNull();
  });

  type Findings = TeamStatus['blocked'][number]['findings'];

  /** The team panel with deploy.md held back for `findings`; the next sync holds it back for `left`. Returns the marks sent. */
  async function markInTeamPanel(findings: Findings, left: Findings, button: string) {
    const blocked: TeamStatus = { ...syncedStatus, blocked: [{ key: 'deploy.md', path: 'projects/-p/memory/team/deploy.md', rule: 'github-pat', line: 3, findings }] };
    const fake = createFakeApi({
      'secrets:rule-kinds': () => ruleKinds,
      'team:status': () => blocked,
      'secrets:allow-in-file': ({ rule, where }) => [{ id: 'y', rule, where, place: null, createdAt: '2026-12-04T10:00:00.000Z' }],
      'team:sync-now': () => ({ ...blocked, blocked: [{ ...blocked.blocked[0]!, findings: left }] }),
    });
    startFakeMain(fake.api);
    const { useStore } = await import('../../renderer/src/store');
    const { ConflictsPanel } = await import('../../renderer/src/features/conflicts/conflicts-panel');
    useStore.getState().setActiveProject('/p');
    useStore.getState().setTeamStatus(blocked);
    render(<ConflictsPanel />);
    await userEvent.click(await screen.findByRole('button', { name: button }));
    await waitFor(() => expect(fake.calls.some((c) => c.channel === 'team:sync-now')).toBe(true));
    return fake.calls.filter((c) => c.channel === 'secrets:allow-in-file').map((c) => c.request);
  }

  it('on a held-back team file: marks each finding by file, line and rule, then syncs again', async () => {
    const marks = await markInTeamPanel([{ rule: 'github-pat', line: 3 }, { rule: 'generic-password', line: 7 }], [{ rule: 'github-pat', line: 3 }], 'Not a secret: a password on line 7');
    expect(marks).toEqual([{ path: 'projects/-p/memory/team/deploy.md', line: 7, rule: 'generic-password', where: 'team push' }]);
    // The other finding is still the user's to decide.
    expect(await screen.findByRole('button', { name: 'Not a secret: a GitHub personal access token on line 3' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Not a secret: a password on line 7' })).toBeNull();
  });

  it('offers one "Not a secret" per value when one line holds two, and marks only the one clicked', async () => {
    const findings = [{ rule: 'github-pat', line: 3, column: 7 }, { rule: 'github-pat', line: 3, column: 58 }];
    const marks = await markInTeamPanel(findings, [findings[1]!], 'Not a secret: a GitHub personal access token on line 3, column 7');
    expect(marks).toEqual([{ path: 'projects/-p/memory/team/deploy.md', line: 3, column: 7, rule: 'github-pat', where: 'team push' }]);
    expect(await screen.findByRole('button', { name: 'Not a secret: a GitHub personal access token on line 3, column 58' })).toBeTruthy();
  });

  it('lists the allowances in Settings by rule and place, and revokes one', async () => {
    let list: SecretAllowanceView[] = [
      { id: 'a1', rule: 'github-pat', where: 'memory write: /v/projects/-p/memory/ci.md', place: { action: 'memory write', memory: 'CI notes', project: 'site', path: '/v/projects/-p/memory/ci.md' }, createdAt: '2026-12-04T10:00:00.000Z' },
      { id: 'a2', rule: 'generic-password', where: 'team push: projects/-p/memory/team/deploy.md', place: { action: 'team push', memory: 'deploy', project: 'site', path: 'projects/-p/memory/team/deploy.md' }, createdAt: '2026-12-04T11:00:00.000Z' },
      { id: 'a3', rule: 'github-pat', where: 'earlier', place: null, createdAt: '2026-12-04T12:00:00.000Z' },
    ];
    const fake = createFakeApi({
      'secrets:rule-kinds': () => ruleKinds,
      'secrets:list-allowances': () => list,
      'secrets:revoke-allowance': ({ id }) => (list = list.filter((a) => a.id !== id)),
    });
    startFakeMain(fake.api);
    const { AllowancesSection } = await import('../../renderer/src/features/secrets/allowances-section');
    render(<AllowancesSection />);
    const items = await screen.findAllByRole('listitem');
    // The memory's name and project, never its vault path (that is only the tooltip).
    expect(items.map((li) => li.textContent)).toEqual([
      expect.stringMatching(/^A GitHub personal access token — “CI notes” in site \(from a memory write, /),
      expect.stringMatching(/^A password — “deploy” in site \(from sharing with the team, /),
      expect.stringMatching(/^A GitHub personal access token — earlier \(/),
    ]);
    expect(items.map((li) => li.textContent).join('\n')).not.toContain('projects/');
    expect(screen.getByText('“CI notes” in site').getAttribute('title')).toBe('/v/projects/-p/memory/ci.md');
    await userEvent.click(screen.getByRole('button', { name: 'Revoke a GitHub personal access token in “CI notes” in site' }));
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(2));
    expect(fake.calls.filter((c) => c.channel === 'secrets:revoke-allowance').map((c) => c.request)).toEqual([{ id: 'a1' }]);
  });
});
