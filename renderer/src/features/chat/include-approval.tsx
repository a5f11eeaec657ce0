import { useState } from 'react';
import type { ChatItem } from '../../../../common/domain/chat';
import { api } from '../../bridge';
import { useStore } from '../../store';

/** docs/memory.md#instructions: a CLAUDE.md that includes a file outside the project is asked about once. */
export function IncludeApproval({ item, project }: { item: Extract<ChatItem, { kind: 'include-approval' }>; project: string }) {
  const [allowed, setAllowed] = useState(false);
  const allow = async () => {
    const result = await api.invoke['chat:approve-include']({ project, path: item.path });
    if (result.ok) setAllowed(true);
    else useStore.getState().showError(result.error);
  };
  return (
    <div className="notice-line" role="note">
      <span>
        <code>{item.includedFrom}</code> includes <code>{item.path}</code>, which is outside this project.{' '}
        {allowed ? 'Allowed: it is read from the next conversation on.' : 'It is left out until you allow it.'}
      </span>
      {!allowed && (
        <button type="button" className="button ghost" onClick={() => void allow()}>
          Allow this file
        </button>
      )}
    </div>
  );
}
