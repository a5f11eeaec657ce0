import { useState } from 'react';
import type { ChatItem } from '../../../../common/domain/chat';
import { RefusedFindings } from '../secrets/not-a-secret';

type ToolItem = Extract<ChatItem, { kind: 'tool' }>;

const statusLabel: Record<ToolItem['status'], string> = {
  running: 'Running…',
  done: 'Done',
  error: 'Failed',
  denied: 'Declined',
};

/** A tool call, collapsed to one line; its input and result on expand. */
export function ToolCard({ item }: { item: ToolItem }) {
  const [open, setOpen] = useState(false);
  return (
    <div className={`tool-card ${item.status}`}>
      <button type="button" className="tool-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="tool-name">{item.name}</span>
        <span className="tool-summary">{item.summary}</span>
        <span className={`tool-status ${item.status}`}>{statusLabel[item.status]}</span>
      </button>
      {item.status === 'error' && item.result !== undefined && <RefusedFindings result={item.result} where={`memory write: ${String((item.input as { file_path?: unknown }).file_path ?? item.summary)}`} />}
      {open && (
        <div className="tool-body">
          <h4>Input</h4>
          <pre tabIndex={0} aria-label={`${item.name} input`}>
            {JSON.stringify(item.input, null, 2)}
          </pre>
          {item.result !== undefined && (
            <>
              <h4>Result</h4>
              <pre tabIndex={0} aria-label={`${item.name} result`}>
                {item.result}
              </pre>
            </>
          )}
        </div>
      )}
    </div>
  );
}
