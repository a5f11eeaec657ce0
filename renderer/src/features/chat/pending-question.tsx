/**
 * The question just sent, shown as the user's message while the turn has not yet written it to the
 * conversation (recall runs first, and may take seconds at thousands of memories): the user sees what
 * they asked above "Finding memories…", not an empty conversation.
 */
export function PendingQuestion({ text }: { text: string }) {
  return (
    <div className="message-block user pending-question">
      <article className="message user" aria-label="You">
        <div className="bubble">{text}</div>
      </article>
    </div>
  );
}
