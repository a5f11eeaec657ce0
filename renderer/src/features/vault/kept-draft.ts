import { useCallback, useState } from 'react';

const PREFIX = 'strata.draft.';

/**
 * Text being typed that has no file to be saved into yet (an Inbox proposal being edited before it is
 * accepted): kept in the browser's storage as it is typed, so leaving the screen, a reload or a
 * closed window does not drop it. `null` means not being edited.
 */
export function useKeptDraft(key: string): [string | null, (text: string | null) => void] {
  const storageKey = PREFIX + key;
  const [text, setText] = useState<string | null>(() => read(storageKey));
  const update = useCallback(
    (next: string | null) => {
      setText(next);
      try {
        if (next === null) localStorage.removeItem(storageKey);
        else localStorage.setItem(storageKey, next);
      } catch {
        // Storage full or refused: the text stays on screen for this visit.
      }
    },
    [storageKey],
  );
  return [text, update];
}

function read(storageKey: string): string | null {
  try {
    return localStorage.getItem(storageKey);
  } catch {
    return null;
  }
}
