/**
 * The tidy-up bench's vault (docs/memory-upkeep.md "Tidying memory"): ordinary project facts with
 * planted problems — duplicates (a second file saying the same thing), relative dates ("next Friday"
 * in a note saved weeks ago) and contradictions (a newer memory replacing an older one) — and the
 * labels the scorer checks the pass's changeset against. Deterministic for a seed.
 */

export interface TidyMemory {
  relPath: string;
  text: string;
  mtimeMs: number;
}

export interface TidyLabels {
  /** [kept original, planted copy]: deleting either (and not both) fixes it. */
  duplicates: [string, string][];
  /** A relative phrase in a file and the absolute date it means. */
  dates: { file: string; phrase: string; expected: string }[];
  /** The older file a newer one contradicts: it should go. */
  contradictions: { older: string; newer: string }[];
}

const DAY = 86_400_000;
export const TIDY_NOW = Date.UTC(2026, 10, 30);
const PROJECTS = 'Atlas Borealis Cinder Dynamo Ember Falcon Granite Harbor Ion Juniper Kestrel Lumen Meridian Nimbus Onyx Pioneer Quartz Raven Sierra Tundra Umbra Vesper Willow Xenon Yarrow Zenith Aurora Basalt Cobalt Delta'.split(' ');
const PEOPLE = 'Priya Raman|Tomás Ortega|Aiko Tanaka|Nadia Haddad|Lars Eriksen|Chidi Okafor|Mei Lin|Rafael Souza'.split('|');
const DATABASES = 'PostgreSQL|SQLite|DynamoDB|MongoDB|ClickHouse|Redis'.split('|');
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '_');
const file = (name: string, description: string, type: string, body: string) =>
  `---\nname: ${JSON.stringify(name)}\ndescription: ${JSON.stringify(description)}\ntype: ${type}\n---\n\n${body}\n`;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The absolute date a relative phrase means for a note saved at `saved` (UTC days). */
export function resolveRelative(phrase: string, saved: number): string {
  const day = Math.floor(saved / DAY) * DAY;
  const lower = phrase.toLowerCase();
  if (lower === 'yesterday') return iso(day - DAY);
  if (lower === 'tomorrow') return iso(day + DAY);
  const m = /^next (\w+)$/.exec(lower);
  if (m) {
    const target = WEEKDAYS.findIndex((w) => w.toLowerCase() === m[1]);
    let d = day + DAY;
    while (new Date(d).getUTCDay() !== target) d += DAY;
    return iso(d);
  }
  throw new Error(`not a relative date: ${phrase}`);
}

export function generateTidyFixture(seed = 5, planted = 10): { memories: TidyMemory[]; labels: TidyLabels; now: number } {
  const rand = rng(seed);
  const one = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const saved = () => TIDY_NOW - (20 + Math.floor(rand() * 300)) * DAY - Math.floor(rand() * DAY);
  const memories: TidyMemory[] = [];
  const labels: TidyLabels = { duplicates: [], dates: [], contradictions: [] };
  const facts: { p: string; key: string; relPath: string; description: string; mtimeMs: number }[] = [];

  for (const p of PROJECTS) {
    const attrs: [string, string, string][] = [
      ['owner', `${p} project owner: ${one(PEOPLE)}`, `Ask the owner before changing ${p}'s scope.`],
      ['database', `${p} database: ${one(DATABASES)}`, `Migrations for ${p} run from the deploy pipeline.`],
      ['repository', `${p} repository: git.example.com/eng/${p.toLowerCase()}`, 'The main branch is protected.'],
      ['budget', `${p} budget: $${5 * (2 + Math.floor(rand() * 80))}k a quarter`, 'Anything above goes to the finance review.'],
    ];
    for (const [key, description, body] of attrs) {
      const relPath = `project_${slug(p)}_${key}.md`;
      const mtimeMs = saved();
      memories.push({ relPath, mtimeMs, text: file(`${p} ${key}`, description, 'project', `${description}. ${body}`) });
      facts.push({ p, key, relPath, description, mtimeMs });
    }
  }

  const shuffled = [...facts].sort(() => rand() - 0.5);
  // Duplicates: a later note restating a fact under another name, with the same description.
  for (const f of shuffled.filter((x) => x.key !== 'budget').slice(0, planted)) {
    const relPath = `project_${slug(f.p)}_${f.key}_note.md`;
    memories.push({ relPath, mtimeMs: f.mtimeMs + 3 * DAY, text: file(`${f.p} ${f.key} (again)`, f.description, 'project', `Noted again: ${f.description}.`) });
    labels.duplicates.push([f.relPath, relPath]);
  }
  // Contradictions: the budget changed; the older memory still states the old figure.
  for (const f of shuffled.filter((x) => x.key === 'budget').slice(0, planted)) {
    const relPath = `project_${slug(f.p)}_budget_update.md`;
    const description = `${f.p} budget changed to $${5 * (2 + Math.floor(rand() * 80))}k a quarter`;
    memories.push({ relPath, mtimeMs: Math.min(TIDY_NOW - DAY, f.mtimeMs + 30 * DAY), text: file(`${f.p} budget (changed)`, description, 'project', `${description}. This replaces the old figure.`) });
    labels.contradictions.push({ older: f.relPath, newer: relPath });
  }
  // Relative dates written down weeks ago.
  const phrases = ['next Friday', 'next Monday', 'yesterday', 'tomorrow', 'next Wednesday'];
  for (let i = 0; i < planted; i++) {
    const p = PROJECTS[(i * 7) % PROJECTS.length]!;
    const phrase = phrases[i % phrases.length]!;
    const mtimeMs = saved();
    const relPath = `project_${slug(p)}_review_${i}.md`;
    memories.push({ relPath, mtimeMs, text: file(`${p} design review ${i}`, `When the ${p} design review happens`, 'project', `The ${p} design review is ${phrase}, in the big room.`) });
    labels.dates.push({ file: relPath, phrase, expected: resolveRelative(phrase, mtimeMs) });
  }
  return { memories, labels, now: TIDY_NOW };
}
