import { useEffect } from 'react';

export interface Shortcut {
  /** `mod` is Ctrl, or Cmd on macOS. Example: `mod+,`, `mod+o`, `mod+1`. */
  keys: string;
  run(): void;
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export const modLabel = isMac ? '⌘' : 'Ctrl+';

function matches(event: KeyboardEvent, keys: string): boolean {
  const parts = keys.toLowerCase().split('+');
  const key = parts.pop();
  const wantMod = parts.includes('mod');
  const mod = isMac ? event.metaKey : event.ctrlKey;
  return mod === wantMod && event.shiftKey === parts.includes('shift') && event.key.toLowerCase() === key;
}

/** App-wide keyboard shortcuts, registered once at the top of the tree. */
export function useShortcuts(shortcuts: Shortcut[]): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const hit = shortcuts.find((s) => matches(event, s.keys));
      if (hit) {
        event.preventDefault();
        hit.run();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [shortcuts]);
}
