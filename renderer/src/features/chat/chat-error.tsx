import { assertNever } from '../../../../common/result';
import type { ChatError as ChatErrorValue } from '../../../../common/domain/chat';
import { useStore } from '../../store';
import { retrySession } from '../../bridge/chat-actions';

function advice(error: ChatErrorValue): string {
  switch (error.kind) {
    case 'no_api_key':
      return 'Add your Anthropic API key in Settings.';
    case 'invalid_key':
      return 'The API key was refused. Check it in Settings.';
    case 'rate_limited':
      return error.retryAfterSeconds ? `Rate limited — try again in ${error.retryAfterSeconds} s.` : 'Rate limited — try again shortly.';
    case 'overloaded':
      return 'The model is overloaded right now. Try again in a moment.';
    case 'context_too_long':
      return 'The conversation is too long for the model. Retry compacts it first; or start a new one.';
    case 'offline':
      return 'Strata cannot reach the model; your conversation is saved.';
    case 'server_error':
      return 'The model service had a problem. Try again.';
    case 'bad_request':
      return 'The request was refused by the model service.';
    default:
      return assertNever(error.kind);
  }
}

/**
 * The error's own text, when it adds to the advice: the API's words for a refused or too long request,
 * what to check when offline, an unexpected failure. The others would only say the advice again.
 */
function detail(error: ChatErrorValue): string | null {
  switch (error.kind) {
    case 'bad_request':
    case 'context_too_long':
    case 'offline':
      return error.message;
    case 'server_error':
      return error.message.startsWith('Something went wrong') ? error.message : null;
    default:
      return null;
  }
}

/** The last turn's failure, with Retry (and Settings where the fix is there). */
export function ChatErrorBanner({ error, project, sessionId }: { error: ChatErrorValue; project: string; sessionId: string }) {
  // Unreachable through a base URL of the user's own: the fix may well be that setting.
  const customBaseUrl = useStore((s) => Boolean(s.settings?.baseUrl));
  const needsSettings = error.kind === 'no_api_key' || error.kind === 'invalid_key' || (error.kind === 'offline' && customBaseUrl);
  return (
    <div className={`banner error chat-error ${error.kind}`} role="alert">
      <div>
        <strong>{advice(error)}</strong>
        {detail(error) && <div className="small muted">{detail(error)}</div>}
      </div>
      <div className="row">
        {needsSettings && (
          <button type="button" className="button secondary" onClick={() => useStore.getState().setScreen('settings')}>
            Open Settings
          </button>
        )}
        <button type="button" className="button primary" onClick={() => void retrySession(project, sessionId)}>
          Retry
        </button>
      </div>
    </div>
  );
}
