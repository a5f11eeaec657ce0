import { useEffect, useRef } from 'react';
import { useStoreShallow } from '../../store';
import { answerPermission } from '../../bridge/chat-actions';
import { DiffView } from '../../ui/diff-view';
import { SideBySideDiff } from '../../ui/side-by-side-diff';
import { ModalDialog } from '../../ui/modal-dialog';

const baseName = (file: string) => file.split(/[\\/]/).pop() ?? file;

/**
 * A write outside the memory folders waits here for the user: what changes (side by side, or a new
 * file's content), where, and three answers. Modal: the keyboard stays in it until it is answered.
 */
export function PermissionDialog() {
  const { request } = useStoreShallow((s) => ({ request: s.permissions[0] ?? null }));
  const allowRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    allowRef.current?.focus();
  }, [request?.requestId]);
  if (!request) return null;
  const answer = (decision: 'allow_once' | 'allow_always' | 'deny') => void answerPermission(request.requestId, decision);
  const name = baseName(request.path);
  const heading = request.created ? `Create ${name}?` : `Allow Strata to ${request.tool === 'Write' ? 'rewrite' : 'edit'} ${name}?`;
  return (
    <ModalDialog className="wide" role="alertdialog" labelledBy="permission-heading" describedBy="permission-path" onEscape={() => answer('deny')}>
      <h2 id="permission-heading">{heading}</h2>
      <p id="permission-path">
        <code>{request.path}</code>
      </p>
      {request.created && request.after !== undefined ? (
        <pre className="new-file-content" tabIndex={0} aria-label={`Content of ${name}`}>
          {request.after}
        </pre>
      ) : request.before !== undefined && request.after !== undefined ? (
        <SideBySideDiff before={request.before} after={request.after} beforeLabel="Now" afterLabel="After the change" />
      ) : (
        <DiffView diff={request.diff} />
      )}
      <div className="row end">
        <button type="button" className="button ghost" onClick={() => answer('deny')}>
          Deny
        </button>
        <button type="button" className="button secondary" onClick={() => answer('allow_always')}>
          Always allow in this project
        </button>
        <button type="button" className="button primary" ref={allowRef} onClick={() => answer('allow_once')}>
          {request.created ? 'Create once' : 'Allow once'}
        </button>
      </div>
    </ModalDialog>
  );
}
