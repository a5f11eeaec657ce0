import { useEffect } from 'react';
import type { MemoryProposal } from '../../../../common/domain/chat';
import { loadProposals, resolveProposal } from '../../bridge/chat-actions';
import { useKeptDraft } from './kept-draft';
import { useProjectLabel } from './project-label';
import { useStoreShallow } from '../../store';
import { ConsolidationInbox } from '../consolidation/consolidation-inbox';
import { MemoryChangeDiff } from '../consolidation/memory-change-diff';

const NONE: MemoryProposal[] = [];

/**
 * Review mode's inbox (docs/memory.md#auto-memory): what the background extractor wanted to save for the open project,
 * waiting to be accepted as is, edited first, or rejected.
 */
export function ReviewPanel() {
  const { project, proposals } = useStoreShallow((s) => ({
    project: s.activeProject,
    proposals: (s.activeProject && s.proposals[s.activeProject]) || NONE,
  }));
  useEffect(() => {
    if (project) void loadProposals(project);
  }, [project]);
  return (
    <section className="health-panel" aria-labelledby="review-heading">
      <h1 id="review-heading">Review inbox</h1>
      {project && <h2 id="noticed-heading">From your conversations</h2>}
      {!project ? (
        <p className="muted">Open a project to see what Strata wants to remember about it.</p>
      ) : proposals.length === 0 ? (
        // Only this section is empty: the tidy-up below may well have changes waiting.
        <p className="muted small">
          No memory from your conversations is waiting. With <strong>Review before saving</strong> on in the project’s settings, what
          Strata notices in the background waits here for you.
        </p>
      ) : (
        <ul className="plain-list">
          {proposals.map((p) => (
            <li key={p.id}>
              <ProposalItem project={project} proposal={p} />
            </li>
          ))}
        </ul>
      )}
      {project && <ConsolidationInbox project={project} />}
    </section>
  );
}

function ProposalItem({ project, proposal }: { project: string; proposal: MemoryProposal }) {
  const label = useProjectLabel();
  const projectOf = (path: string) => label(/^projects\/([^/]+)\//.exec(path)?.[1] ?? null) + (path.includes('/memory/team/') ? ' · team' : '');
  // An edit in progress survives leaving the Inbox; accepting or rejecting ends it.
  const [editing, setEditing] = useKeptDraft(`proposal.${proposal.id}`);
  const decide = async (decision: 'accept' | 'reject') => {
    if (await resolveProposal(project, proposal.id, decision, decision === 'accept' ? (editing ?? undefined) : undefined)) setEditing(null);
  };
  const verb = proposal.action === 'deleted' ? 'Forget' : proposal.action === 'updated' ? 'Update' : 'Remember';
  return (
    <article className="memory-card" aria-label={`${verb}: ${proposal.title}`}>
      <div className="memory-head">
        <span className="memory-verb">{verb}</span>
        <strong>{proposal.title}</strong>
        {proposal.type && <span className={`badge type-${proposal.type}`}>{proposal.type}</span>}
        <span className="muted small" title={proposal.path}>
          {projectOf(proposal.path)}
        </span>
      </div>
      {editing === null ? (
        <MemoryChangeDiff before={proposal.before} after={proposal.text} />
      ) : (
        <textarea className="code" rows={10} aria-label="Memory text" value={editing} onChange={(e) => setEditing(e.target.value)} />
      )}
      <div className="row end">
        <button type="button" className="button ghost" onClick={() => void decide('reject')}>
          Reject
        </button>
        {proposal.text !== null &&
          (editing === null ? (
            <button type="button" className="button secondary" onClick={() => setEditing(proposal.text)}>
              Edit
            </button>
          ) : (
            <button type="button" className="button secondary" onClick={() => setEditing(null)}>
              Cancel edit
            </button>
          ))}
        <button
          type="button"
          className="button primary"
          onClick={() => void decide('accept')}
        >
          {editing === null ? 'Accept' : 'Save and accept'}
        </button>
      </div>
    </article>
  );
}
