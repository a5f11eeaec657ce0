import { useState } from 'react';
import type { ChatItem } from '../../../../common/domain/chat';
import { RefusedFindings } from '../secrets/not-a-secret';
import { setMemoryPaused } from '../memory-controls/memory-pause';
import { useStore } from '../../store';
import { saveRefusedWrite } from '../../bridge/chat-actions';
import { ToolDetails } from './tool-details';

type ToolItem = Extract<ChatItem, { kind: 'tool' }>;

const statusLabel: Record<ToolItem['status'], string> = {
  running: 'Running…',
  done: 'Done',
  error: 'Failed',
  denied: 'Declined',
  paused: 'Not saved',
};

/**
 * A memory write while memory was paused: said calmly, with the way back (docs/memory.md#pause-and-incognito).
 * Once memory is on again the line says so instead of offering Resume.
 */
function PausedLine({ project }: { project: string }) {
  const paused = useStore((s) => s.settings?.projects[project]?.memoryPaused ?? false);
  if (!paused) return <p className="tool-note small">Not saved: memory was paused in this project. It is on again: ask Strata to save it.</p>;
  return (
    <p className="tool-note small">
      Not saved: memory is paused in this project
      {' · '}
      <button type="button" className="link" onClick={() => void setMemoryPaused(project, false)}>
        Resume
      </button>
    </p>
  );
}

/** A tool call, collapsed to one line; what it did, in words, on expand. */
export function ToolCard({ item, project, sessionId }: { item: ToolItem; project: string; sessionId: string }) {
  const [open, setOpen] = useState(false);
  // A refused write saved since with "Save it now" reads as saved here (its memory card follows in the conversation).
  const [savedNow, setSavedNow] = useState(false);
  const status = savedNow ? 'done' : item.status;
  return (
    <div className={`tool-card ${status}`}>
      <button type="button" className="tool-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="tool-name">{item.name}</span>
        <span className="tool-summary">{item.summary}</span>
        <span className={`tool-status ${status}`}>{savedNow ? 'Saved' : statusLabel[item.status]}</span>
      </button>
      {item.status === 'paused' && <PausedLine project={project} />}
      {item.status === 'error' && item.result !== undefined && (
        <RefusedFindings
          result={item.result}
          where={`memory write: ${String((item.input as { file_path?: unknown }).file_path ?? item.summary)}`}
          onSave={async () => {
            const outcome = await saveRefusedWrite(project, sessionId, item.id);
            setSavedNow(outcome.saved);
            return outcome;
          }}
        />
      )}
      {open && <ToolDetails item={item} project={project} />}
    </div>
  );
}
