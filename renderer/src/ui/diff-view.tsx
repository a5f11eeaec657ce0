/** A unified diff with added and removed lines marked; focusable, since it scrolls. */
export function DiffView({ diff, label = 'Changes' }: { diff: string; label?: string }) {
  return (
    <pre className="diff" aria-label={label} tabIndex={0}>
      {diff
        .split('\n')
        // The patch's `Index:` banner repeats the file name the card already shows.
        .filter((line, i) => !(i < 2 && (line.startsWith('Index: ') || /^=+$/.test(line))))
        .map((line, i) => (
        <span key={i} className={line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : undefined}>
          {line}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}
