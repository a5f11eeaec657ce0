import type { ContextMeter as Meter } from '../../../../common/domain/chat';

const k = (n: number) => `${Math.round(n / 1000)}k`;

/** Context used against the auto-compaction threshold; turns to a warning near it (docs/memory.md#compaction). */
export function ContextMeter({ context }: { context: Meter }) {
  // Nothing sent yet: "0k / 167k" would only be noise on an empty conversation.
  if (context.used === 0) return null;
  const share = Math.min(1, context.used / context.threshold);
  return (
    <div className={`context-meter${context.warning ? ' warning' : ''}`} title="Context used before the conversation is compacted">
      <meter min={0} max={context.threshold} value={context.used} aria-label="Context used" />
      <span className="small">
        {k(context.used)} / {k(context.threshold)} tokens{context.warning ? ' — compaction soon' : ''}
      </span>
      {context.cleared ? (
        <span className="small muted" title="Old tool results the model no longer needs were left out of the last request (context editing). The files are unchanged; the agent can read them again.">
          {k(context.cleared)} of old tool results cleared
        </span>
      ) : null}
      <span className="sr-only">{Math.round(share * 100)} percent</span>
    </div>
  );
}
