import type { MemoryType } from '../../../common/domain/vault.js';
import { importSourceLabels, type ImportItem, type ImportPreview, type ImportSource } from '../../../common/domain/portability.js';
import { memoryFileName, provenanceLine } from './import-naming.js';
import { secretBlanker, type ImportScan } from './import-secrets.js';

/**
 * Turns what ChatGPT or Claude answer to "list everything you remember about me" into typed memory
 * items (docs/memory-upkeep.md "Bringing memory in"). The answers come as bullets, numbered lines or
 * paragraphs, often under headings, often with the date each memory was saved: `[2024-05-12] - …`,
 * `2024-05-12: …`, `… (saved May 12, 2024)`. Chatter around the list ("Here's what I remember…",
 * "Let me know if…") is skipped and reported, never silently dropped.
 */

export const MAX_PASTE_CHARS = 200_000;
const MAX_ITEMS = 500;

const BULLET = /^(\s*)(?:[-*•·–]|\d{1,3}[.)])\s+(.*)$/;
const MD_HEADING = /^\s*#{1,6}\s+(.+?)\s*#*\s*$/;
const BOLD_HEADING = /^\s*(?:\*\*|__)([^*_]{1,60}?)(?:\*\*|__)\s*:?\s*$/;
const PLAIN_HEADING = /^\s*([A-Z][\w &/'-]{0,40}):\s*$/;
const INTRO = /\b(remember|know|stored|saved|memor(?:y|ies)|here(?:'s| is| are)|summary)\b/i;
const OUTRO = /^(?:let me know|is there anything|if you(?:'d| would) like|feel free|i don't have any other|that's (?:all|everything)|would you like)/i;

const MONTHS = 'january february march april may june july august september october november december'.split(' ');
const MONTH = `(?:${MONTHS.map((m) => `${m.slice(0, 3)}(?:${m.slice(3)})?`).join('|')})\\.?`;
const DATE_TEXT = `\\d{4}-\\d{2}-\\d{2}|${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{4}|\\d{1,2}\\s+${MONTH}\\s+\\d{4}|\\d{1,2}/\\d{1,2}/\\d{4}`;
const UNKNOWN_DATE = '(?:unknown|no) date|date unknown|undated';
const LEADING_DATE = new RegExp(`^(?:\\[\\s*(${DATE_TEXT}|${UNKNOWN_DATE})\\s*\\]|\\(\\s*(${DATE_TEXT})\\s*\\)|(${DATE_TEXT}))\\s*(?:[-–—:|]\\s*)?`, 'i');
/** A line that opens with its saved date (`[2024-05-12] - …`, `2024-05-12: …`) is one memory, bullet or not. */
const DATED_LINE = new RegExp(`^(\\s*)((?:\\[\\s*(?:${DATE_TEXT}|${UNKNOWN_DATE})\\s*\\]|\\(\\s*(?:${DATE_TEXT})\\s*\\)|(?:${DATE_TEXT})\\s*[-–—:|]).*)$`, 'i');
const TRAILING_DATE = new RegExp(`\\s*(?:[-–—]\\s*|\\(\\s*|\\[\\s*)(?:(?:saved|added|remembered|noted|updated)(?:\\s+on)?\\s+)?(${DATE_TEXT})\\s*[)\\]]?\\.?\\s*$`, 'i');

/** A date as written → `YYYY-MM-DD`, or null when it is not one. */
export function isoDate(text: string): string | null {
  const t = text.trim().replace(/(\d)(?:st|nd|rd|th)/i, '$1').replace(/,/g, '');
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  if (m) return valid(+m[1]!, +m[2]!, +m[3]!);
  m = /^([A-Za-z]+)\.?\s+(\d{1,2})\s+(\d{4})$/.exec(t);
  if (m) return valid(+m[3]!, monthOf(m[1]!), +m[2]!);
  m = /^(\d{1,2})\s+([A-Za-z]+)\.?\s+(\d{4})$/.exec(t);
  if (m) return valid(+m[3]!, monthOf(m[2]!), +m[1]!);
  // 05/12/2024: the US order, as both assistants write it for US English.
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  if (m) return valid(+m[3]!, +m[1]!, +m[2]!);
  return null;
}

function monthOf(name: string): number {
  const i = MONTHS.findIndex((m) => m.startsWith(name.toLowerCase().slice(0, 3)));
  return i + 1;
}

function valid(y: number, mo: number, d: number): string | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCMonth() !== mo - 1) return null;
  return date.toISOString().slice(0, 10);
}

/** Splits the saved date off a memory's text. */
export function splitDate(text: string): { text: string; savedOn: string | null } {
  let rest = text.trim();
  let savedOn: string | null = null;
  const lead = LEADING_DATE.exec(rest);
  if (lead) {
    savedOn = isoDate(lead[1] ?? lead[2] ?? lead[3] ?? '');
    rest = rest.slice(lead[0].length);
  }
  const trail = TRAILING_DATE.exec(rest);
  if (trail && trail.index > 0) {
    savedOn ??= isoDate(trail[1]!);
    rest = rest.slice(0, trail.index).replace(/[\s,;]+$/, '');
  }
  return { text: rest.trim(), savedOn };
}

/** Markdown emphasis and a leading "Label:" in bold are kept as words only. */
const plain = (text: string) => text.replace(/\*\*|__|`/g, '').replace(/(^|\s)[*_]([^*_]+)[*_](?=\s|$|[.,;:])/g, '$1$2').replace(/\s+/g, ' ').trim();

const FEEDBACK_VERB = /\b(prefers?|wants?|likes?|dislikes?|hates?|asks?|asked|don't|do not|never|always|avoid|please)\b/i;
const FEEDBACK_OBJECT = /\b(answers?|responses?|repl(?:y|ies)|explanations?|explain|tone|format(?:ting)?|bullets?|concise|brief|short|detail(?:ed)?|emojis?|examples?|style|writ(?:e|ing)|me to|you to|code blocks?|summar(?:y|ies))\b/i;
const PROJECT_WORDS = /\b(working on|works on|project|building|launch(?:ing)?|deadline|startup|roadmap|thesis|course|planning to|migrat(?:e|ing)|release|sprint|client)\b/i;
const URL = /\bhttps?:\/\/\S+/i;

/** The memory type a line most likely is, from its words and the heading it sits under. */
export function inferType(text: string, section: string | null): MemoryType {
  const s = section ?? '';
  if (FEEDBACK_VERB.test(text) && FEEDBACK_OBJECT.test(text)) return 'feedback';
  if (/prefer|style|instruction|how (?:i|you|to) (?:respond|answer|write)/i.test(s)) return 'feedback';
  if (URL.test(text)) return 'reference';
  // "Is a designer at Figma, working on…" is who the user is; the project words come after.
  if (/^(?:is|works as|worked as)\s+(?:a|an)\s/i.test(text)) return 'user';
  if (PROJECT_WORDS.test(text) || /project|goal|work in progress|current work/i.test(s)) return 'project';
  return 'user';
}

/** A short name: the first clause (up to a comma), without "The user"/"You"/"Is", at most about 60 characters. */
export function nameOf(text: string): string {
  let clause = text.split(/(?<=[.;!?])\s|\s[–—]\s/)[0]!.replace(/[.;:!?]+$/, '');
  const beforeComma = clause.split(',')[0]!;
  if (beforeComma.split(/\s+/).length >= 3) clause = beforeComma;
  const bare = clause.replace(/^(?:the user|user|you|they)(?:'s|'re| is| are)?\s+/i, '').replace(/^(?:is|are)\s+(?=an?\s|\w+ing\b)/i, '').trim() || clause;
  const words = bare.split(/\s+/);
  let name = '';
  for (const w of words) {
    if (name && (name + ' ' + w).length > 60) break;
    name = name ? `${name} ${w}` : w;
  }
  return name.charAt(0).toUpperCase() + name.slice(1);
}

interface Draft {
  text: string;
  section: string | null;
  indent: number;
}

/** Groups the pasted text into drafts (one per bullet, numbered line or paragraph) and skipped chatter. */
function drafts(pasted: string): { drafts: Draft[]; skipped: ImportPreview['skipped'] } {
  const lines = pasted.replace(/\r\n?/g, '\n').split('\n');
  const out: Draft[] = [];
  const skipped: ImportPreview['skipped'] = [];
  let section: string | null = null;
  let paragraph: string[] = [];
  let lastBullet: Draft | null = null;
  const flush = () => {
    if (paragraph.length) out.push({ text: paragraph.join(' '), section, indent: 0 });
    paragraph = [];
  };
  for (const [i, raw] of lines.entries()) {
    const line = raw.replace(/\s+$/, '');
    if (!line.trim()) {
      flush();
      continue;
    }
    const heading = MD_HEADING.exec(line) ?? BOLD_HEADING.exec(line) ?? PLAIN_HEADING.exec(line);
    const bullet = BULLET.exec(line) ?? DATED_LINE.exec(line);
    if (heading && !bullet) {
      flush();
      const title = plain(heading[1]!);
      // "Here's what I remember about you:" is a preamble, not a section.
      if (INTRO.test(title) && i < 3) skipped.push({ what: title, why: 'introduction, not a memory' });
      else section = title;
      lastBullet = null;
      continue;
    }
    if (bullet) {
      flush();
      const indent = bullet[1]!.replace(/\t/g, '  ').length;
      const text = bullet[2]!.trim();
      // A sub-bullet belongs to the item above it.
      if (lastBullet && indent > lastBullet.indent) {
        lastBullet.text = `${lastBullet.text.replace(/[:.]$/, '')}; ${text}`;
        continue;
      }
      lastBullet = { text, section, indent };
      out.push(lastBullet);
      continue;
    }
    const trimmed = line.trim();
    if (OUTRO.test(trimmed)) {
      flush();
      skipped.push({ what: trimmed, why: 'closing remark, not a memory' });
      continue;
    }
    if (out.length === 0 && paragraph.length === 0 && /:\s*$/.test(trimmed) && INTRO.test(trimmed)) {
      skipped.push({ what: trimmed, why: 'introduction, not a memory' });
      continue;
    }
    lastBullet = null;
    paragraph.push(trimmed);
  }
  flush();
  return { drafts: out, skipped };
}

/**
 * Parses a pasted answer into a preview. `now` dates the provenance line. The kind, name, description
 * and file name are worked out with every value `scan` finds blanked, so "my github token is ghp_…"
 * never becomes a file name or a MEMORY.md line; the text keeps it, for the preview to flag.
 */
export function parsePastedMemories(pasted: string, source: ImportSource, now: number, scan: ImportScan): ImportPreview {
  if (pasted.length > MAX_PASTE_CHARS) throw new RangeError(`The pasted text is over ${MAX_PASTE_CHARS.toLocaleString('en')} characters; paste it in parts`);
  const { drafts: found, skipped } = drafts(pasted);
  const items: ImportItem[] = [];
  const taken = new Set<string>();
  for (const d of found) {
    const { text: dated, savedOn } = splitDate(plain(d.text));
    const text = dated.replace(/^[-–—:|]\s*/, '').trim();
    if (!/\p{L}/u.test(text)) {
      skipped.push({ what: d.text, why: 'no words to remember' });
      continue;
    }
    if (items.length >= MAX_ITEMS) {
      skipped.push({ what: text, why: `more than ${MAX_ITEMS} items; import the rest separately` });
      continue;
    }
    const blank = secretBlanker(scan, text, d.section ?? '');
    const safe = blank(text);
    const type = inferType(safe, d.section);
    const name = nameOf(safe);
    const fileName = memoryFileName(type, name, taken);
    const sentence = /[.!?]$/.test(text) ? text : `${text}.`;
    const section = d.section ? `${blank(d.section)}: ` : '';
    items.push({
      id: `item-${items.length + 1}`,
      fileName,
      name,
      description: (section + safe).slice(0, 200),
      type,
      body: `${sentence}\n\n${provenanceLine(importSourceLabels[source], now, savedOn)}`,
    });
  }
  return { source, items, skipped };
}
