/**
 * The newest Claude Code links memories with `[[name]]`, `[[name|shown text]]` or `[[name#heading]]`
 * (the part before `|` or `#` names the memory; main's memory-links resolves it). For the preview they
 * become ordinary markdown links to `#memory-link=<name>`, which the preview draws as a link to the
 * memory or as "not written yet". Fenced code and code spans are left as written, as main skips them.
 */
const PATTERN = /(^(```|~~~)[^\n]*\n[\s\S]*?^\2[^\n]*$)|(`[^`\n]*`)|\[\[([^[\]\n|#]+)(?:([|#])([^[\]\n]*))?\]\]/gm;
const PREFIX = '#memory-link=';

const escapeLabel = (text: string) => text.replace(/[\\[\]*_`<>]/g, (c) => `\\${c}`);

export function withWikiLinks(markdown: string): string {
  return markdown.replace(PATTERN, (whole, fence: string | undefined, _mark, span: string | undefined, name: string, sep?: string, rest?: string) => {
    if (fence || span) return whole;
    const target = name.trim();
    if (!target) return whole;
    const shown = sep === '|' && rest?.trim() ? rest.trim() : sep === '#' ? `${target}#${rest ?? ''}` : target;
    return `[${escapeLabel(shown)}](${PREFIX}${encodeURIComponent(target)})`;
  });
}

/** The memory name a preview link stands for, or null for any other link. */
export function wikiLinkName(href: string | undefined): string | null {
  if (!href?.startsWith(PREFIX)) return null;
  try {
    return decodeURIComponent(href.slice(PREFIX.length));
  } catch {
    return null;
  }
}
