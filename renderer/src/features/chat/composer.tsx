import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { ModelPicker } from './model-picker';
import { sendMessage, stopSession } from '../../bridge/chat-actions';

/** The prompt box: Enter sends, Shift+Enter adds a line, Escape stops a running answer. */
export function Composer({
  project,
  sessionId,
  busy,
  disabled,
  onSent,
}: {
  project: string;
  sessionId: string;
  busy: boolean;
  disabled: boolean;
  /** Told the question as it goes, so the conversation can show it before main has written it. */
  onSent?: (text: string | null) => void;
}) {
  const [text, setText] = useState('');
  const areaRef = useRef<HTMLTextAreaElement>(null);
  // Opening a conversation (or a project's new one) puts the cursor in the prompt, unless the user is
  // typing in another field.
  useEffect(() => {
    const active = document.activeElement;
    if (disabled || (active instanceof HTMLElement && active.matches('input, textarea, select, [contenteditable="true"]'))) return;
    areaRef.current?.focus();
  }, [sessionId, disabled]);
  const send = async () => {
    const trimmed = text.trim();
    if (!trimmed || busy || disabled) return;
    onSent?.(trimmed);
    if (await sendMessage(project, sessionId, trimmed)) setText('');
    else onSent?.(null);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    } else if (e.key === 'Escape' && busy) {
      e.preventDefault();
      void stopSession(sessionId);
    }
  };
  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <label className="sr-only" htmlFor="prompt">
        Message
      </label>
      <textarea
        id="prompt"
        ref={areaRef}
        className="input prompt"
        rows={3}
        placeholder={disabled ? 'Add an API key in Settings to start' : 'Ask Strata… (Enter to send, Shift+Enter for a new line)'}
        value={text}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="composer-side">
        <ModelPicker disabled={busy} />
        {busy ? (
          <button type="button" className="button secondary" onClick={() => void stopSession(sessionId)}>
            Stop <kbd>Esc</kbd>
          </button>
        ) : (
          <button type="submit" className="button primary" disabled={disabled || !text.trim()}>
            Send
          </button>
        )}
      </div>
    </form>
  );
}
