/**
 * Characters no file name or team key Strata writes may hold (docs/memory.md#write-sandbox): the C0
 * controls (line feed, carriage return, tab, escape…), DEL and the C1 controls, the Unicode line and
 * paragraph separators, and the text-direction controls. A line break in a name splits the `MEMORY.md`
 * line that points at it and every listing that shows it; an escape sequence repaints a terminal that
 * prints it; a direction control makes `gpj.exe` read as `exe.jpg`.
 */
const isDirectionControl = (code: number) => (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
const isControl = (code: number) => code <= 0x1f || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029 || isDirectionControl(code);

const NAMES: Record<string, string> = {
  '\n': 'a line feed',
  '\r': 'a carriage return',
  '\t': 'a tab',
  '\u001b': 'an escape character',
  '\u0000': 'a NUL character',
  '\u2028': 'a line separator',
  '\u2029': 'a paragraph separator',
};

/** Why `name` cannot be a file name or key, as a clause ("contains a line feed (U+000A)"); null when it has no control character. */
export function controlCharacterProblem(name: string): string | null {
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (!isControl(code)) continue;
    const what = NAMES[name[i]!] ?? (isDirectionControl(code) ? 'a text-direction control' : 'a control character');
    return `contains ${what} (U+${code.toString(16).toUpperCase().padStart(4, '0')})`;
  }
  return null;
}
