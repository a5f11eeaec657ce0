import { useEffect, useRef } from 'react';
import { useStoreShallow } from '../../store';
import { answerPermission } from '../../bridge/chat-actions';
import { DiffView } from '../../ui/diff-view';

/** A write outside the memory folders waits here for the user: the path, the diff, three answers. */
export function PermissionDialog() {
  const { request } = useStoreShallow((s) => ({ request: s.permissions[0] ?? null }));
  const allowRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    allowRef.current?.focus();
  }, [request?.requestId]);
  if (!request) return null;
  const answer = (decision: 'allow_once' | 'allow_always' | 'deny') => void answerPermission(request.requestId, decision);
  return (
    <div className="modal-backdrop">
      <div
        className="modal wide"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="permission-heading"
        aria-describedby="permission-path"
        onKeyDown={(e) => e.key === 'Escape' && answer('deny')}
      >
        <h2 id="permission-heading">Allow Strata to {request.tool === 'Write' ? 'write' : 'edit'} this file?</h2>
        <p id="permission-path">
          <code>{request.path}</code>
        </p>
        <DiffView diff={request.diff} />
        <div className="row end">
          <button type="button" className="button ghost" onClick={() => answer('deny')}>
            Deny
          </button>
          <button type="button" className="button secondary" onClick={() => answer('allow_always')}>
            Always allow in this project
          </button>
          <button type="button" className="button primary" ref={allowRef} onClick={() => answer('allow_once')}>
            Allow once
          </button>
        </div>
      </div>
    </div>
  );
}
