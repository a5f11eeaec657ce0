/** A unified diff with added and removed lines marked; focusable, since it scrolls. */
export function DiffView({ diff, label = 'Changes' }: { diff: string; label?: string }) {
  return (
    <pre className="diff" aria-label={label} tabIndex={0}>
      {diff.split('\n').map((line, i) => (
        <span key={i} className={line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : undefined}>
          {line}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}
