import { useStoreShallow } from '../../store';
import { MessageList } from './message-list';
import { Composer } from './composer';
import { ContextMeter } from './context-meter';
import { ChatErrorBanner } from './chat-error';
import { NotesPanel } from './notes-panel';
import { useStore } from '../../store';
import { useEffect, useRef, useState } from 'react';
import { useMediaQuery } from '../../ui/use-media-query';
import { CompactDialog } from './compact-dialog';
import { RawTranscriptDialog } from './raw-transcript-dialog';
import { incognitoTitle, MemoryStatus } from '../memory-controls/incognito';
import { slug } from '../../../../common/paths/slug';
import { LoadingLine } from '../shell/loading-line';
import { PendingQuestion } from './pending-question';
import { isTurnRunning } from './turn-running';

/** Below this width the session notes are a drawer over the conversation (panels.css has the same width). */
const NARROW = '(max-width: 1100px)';

/** One open conversation: header with the context meter, the messages, the prompt box. */
export function SessionPane({ project, projectName, sessionId }: { project: string; projectName: string; sessionId: string }) {
  const { view, listedTitle, needsKey, notesOpen, compacting } = useStoreShallow((s) => ({
    view: s.views[sessionId],
    // The list is kept live from main (first prompt, rename); the opened view's title is a snapshot.
    listedTitle: s.sessions[project]?.find((x) => x.sessionId === sessionId)?.title ?? null,
    needsKey: s.credentials?.apiKey === 'missing',
    notesOpen: s.notesOpen,
    compacting: s.compacting === sessionId,
  }));
  const setCompacting = (open: boolean) => useStore.getState().setCompacting(open ? sessionId : null);
  const [raw, setRaw] = useState(false);
  // The question sent and how many questions the conversation held then: it shows until main adds it.
  const [asked, setAsked] = useState<{ text: string; questions: number } | null>(null);
  // A narrow window has no room beside the conversation: there the notes open over it, on demand.
  const narrow = useMediaQuery(NARROW);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const showNotes = narrow ? drawerOpen : notesOpen;
  const setShowNotes = (open: boolean) => (narrow ? setDrawerOpen(open) : useStore.getState().setNotesOpen(open));
  // Hiding the drawer gives the keyboard back to the button that opened it.
  const notesButton = useRef<HTMLButtonElement>(null);
  const hadDrawer = useRef(false);
  useEffect(() => {
    if (hadDrawer.current && !drawerOpen) notesButton.current?.focus();
    hadDrawer.current = drawerOpen;
  }, [drawerOpen]);
  if (!view) return <p className="muted">Opening the conversation…</p>;
  const title = listedTitle ?? (view.incognito ? incognitoTitle(view) : view.title);
  const busy = isTurnRunning(view.phase);
  const questions = view.items.filter((i) => i.kind === 'user').length;
  const pending = asked && asked.questions === questions && (busy || view.progress) ? asked.text : null;
  return (
    <div className="session-layout">
      <section className="session-pane" aria-labelledby="session-title">
        <header className="session-header">
          <div className="session-titles">
            <p className="muted small" title={project}>
              {projectName}
            </p>
            <h1 id="session-title" title={title}>
              {title}
            </h1>
          </div>
          <div className="session-tools">
            <ContextMeter context={view.context} />
            <MemoryStatus project={project} incognito={view.incognito === true} />
            {view.items.length > 0 && (
              <button type="button" className="button ghost" disabled={busy} onClick={() => setCompacting(true)}>
                Compact…
              </button>
            )}
            {view.items.length > 0 && (
              // Short labels keep the header's tools on one line beside the notes panel; the full name is the tooltip.
              <button type="button" className="button ghost" aria-label="Show raw" title="Show the raw transcript" onClick={() => setRaw(true)}>
                Raw
              </button>
            )}
            {!showNotes && (
              <button type="button" className="button ghost" ref={notesButton} aria-label="Session notes" title="Show the session notes" onClick={() => setShowNotes(true)}>
                Notes
              </button>
            )}
          </div>
        </header>
        {/* The first question of a conversation shows once recall is done: meanwhile no "Start a conversation". */}
        {view.items.length === 0 && busy ? null : view.items.length === 0 ? (
          <div className="empty-state compact">
            <h2>Start a conversation</h2>
            <p className="muted">
              Ask about this folder, or say “remember …” to teach Strata something for next time. Files change only with your
              consent.
            </p>
          </div>
        ) : (
          <MessageList items={view.items} project={project} sessionId={sessionId} busy={busy} />
        )}
        {view.error && <ChatErrorBanner error={view.error} project={project} sessionId={sessionId} />}
        {pending && <PendingQuestion text={pending} />}
        {view.progress && <LoadingLine className="turn-progress">{view.progress}</LoadingLine>}
        {view.phase === 'running-tools' && <p className="muted small" role="status">Working…</p>}
        <Composer
          project={project}
          sessionId={sessionId}
          busy={busy}
          disabled={needsKey}
          onSent={(text) => setAsked(text === null ? null : { text, questions })}
        />
      </section>
      {showNotes && <NotesPanel project={project} sessionId={sessionId} drawer={narrow} onHide={() => setShowNotes(false)} />}
      {compacting && <CompactDialog project={project} sessionId={sessionId} onClose={() => setCompacting(false)} />}
      {raw && <RawTranscriptDialog path={`projects/${slug(project)}/${sessionId}.jsonl`} onClose={() => setRaw(false)} />}
    </div>
  );
}
