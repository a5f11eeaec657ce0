/**
 * A seeded run of edits over 40 files of a ten-word language: `steps` times, one file is removed or
 * written anew. Returns the files as they end up, for comparing an index kept current edit by edit with
 * one built afresh.
 */
export function randomEdits(steps: number, seed: number, edit: { write(id: string, text: string): void; remove(id: string): void }): Map<string, string> {
  const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa'.split(' ');
  let state = seed;
  const rnd = () => ((state = (state * 1103515245 + 12345) >>> 0) >>> 8) / 2 ** 24;
  const files = new Map<string, string>();
  for (let step = 0; step < steps; step++) {
    const id = `n${Math.floor(rnd() * 40)}.md`;
    if (rnd() < 0.3) {
      edit.remove(id);
      files.delete(id);
    } else {
      const text = Array.from({ length: 1 + Math.floor(rnd() * 12) }, () => words[Math.floor(rnd() * words.length)]).join(' ');
      edit.write(id, text);
      files.set(id, text);
    }
  }
  return files;
}
