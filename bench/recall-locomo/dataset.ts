import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * LoCoMo conversations as the recall-locomo bench uses them (the method of the data set's README, which
 * lives beside the data and never in this repository: CC BY-NC 4.0). Each observation becomes one memory;
 * each question of categories 1–4 with evidence becomes one query scored by the dialogue ids it cites.
 */

export type LocomoCategory = 'multi-hop' | 'temporal' | 'open-domain' | 'single-hop';
const CATEGORY: Record<number, LocomoCategory> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };
export const CATEGORIES: readonly LocomoCategory[] = ['multi-hop', 'temporal', 'open-domain', 'single-hop'];

export interface LocomoMemory {
  /** File name in the conversation's memory folder. */
  relPath: string;
  text: string;
  mtimeMs: number;
  /** The dialogue turns this observation was drawn from. */
  evidence: string[];
}

export interface LocomoQuestion {
  id: string;
  question: string;
  category: LocomoCategory;
  evidence: string[];
}

export interface LocomoConversation {
  id: string;
  memories: LocomoMemory[];
  questions: LocomoQuestion[];
  /** The conversation's last session date: "now" for ages in the attachments. */
  lastSessionMs: number;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" → epoch ms (UTC); NaN when the shape differs. */
export function parseSessionDate(text: string): number {
  const m = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})$/i.exec(text.trim());
  if (!m) return Number.NaN;
  const month = MONTHS.indexOf(m[5]!.toLowerCase());
  if (month < 0) return Number.NaN;
  const hour = (Number(m[1]) % 12) + (m[3]!.toLowerCase() === 'pm' ? 12 : 0);
  return Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]));
}

const DIA_ID = /D\d+:\d+/g;
const idsOf = (value: unknown): string[] => (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).match(DIA_ID) ?? []);

/** The memory file of one observation, in Claude Code's shape. */
function memoryOf(fact: string, said: string, index: number): Pick<LocomoMemory, 'relPath' | 'text'> {
  const name = fact.split(/\s+/).slice(0, 8).join(' ').replace(/[:#]/g, '');
  const words = fact
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/[^a-z0-9]/g, ''))
    .filter((w) => w.length >= 3)
    .slice(0, 6);
  const relPath = `${words.join('-')}-${String(index).padStart(3, '0')}.md`;
  const text = `---\nname: ${name}\ndescription: ${JSON.stringify(fact)}\ntype: user\n---\n\n${fact} (said ${said})\n`;
  return { relPath, text };
}

export function parseConversation(id: string, raw: Record<string, unknown>): LocomoConversation {
  const sessions = Object.keys(raw)
    .map((k) => /^session_(\d+)_observation$/.exec(k)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  const memories: LocomoMemory[] = [];
  let lastSessionMs = 0;
  for (const n of sessions) {
    const said = String(raw[`session_${n}_date_time`] ?? '');
    const mtimeMs = parseSessionDate(said);
    if (Number.isNaN(mtimeMs)) throw new Error(`conversation ${id}: session ${n} has no readable date (${said})`);
    lastSessionMs = Math.max(lastSessionMs, mtimeMs);
    const bySpeaker = raw[`session_${n}_observation`] as Record<string, [string, unknown][]>;
    for (const observations of Object.values(bySpeaker)) {
      for (const [fact, evidence] of observations) {
        memories.push({ ...memoryOf(fact, said, memories.length), mtimeMs, evidence: idsOf(evidence) });
      }
    }
  }
  const questions = ((raw.qa as { question: string; category: number; evidence?: unknown[] }[]) ?? [])
    .filter((q) => CATEGORY[q.category] !== undefined)
    .map((q, i) => ({ id: `${id}:${i}`, question: q.question, category: CATEGORY[q.category]!, evidence: [...new Set(idsOf(q.evidence ?? []))] }))
    .filter((q) => q.evidence.length > 0);
  return { id, memories, questions, lastSessionMs };
}

/** Where the data set lives: STRATA_LOCOMO_DIR, else `../shared/data/locomo` beside the checkout. */
export function locomoDir(repoRoot: string): string {
  return process.env.STRATA_LOCOMO_DIR ?? path.resolve(repoRoot, '..', 'shared', 'data', 'locomo');
}

/** Every conversation file (`*.json`) of the folder, by name; null when the folder is absent. */
export function loadConversations(dir: string): LocomoConversation[] | null {
  if (!existsSync(dir)) return null;
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  if (files.length === 0) return null;
  return files.map((f) => parseConversation(f.replace(/\.json$/, ''), JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Record<string, unknown>));
}
