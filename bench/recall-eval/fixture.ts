/**
 * The recall-quality fixture in the shape of LongMemEval (docs/memory-upkeep.md "Measuring recall"):
 * a generated vault of memory files and questions, each labelled with the file that answers it.
 * Categories: a project fact, a fact about the user, a preference (feedback), a knowledge update (a
 * newer memory supersedes an older one; the newer is the answer) and abstention (nothing in the vault
 * answers; the right recall is none). Deterministic for a seed, so every run scores the same vault.
 */

export type QuestionCategory = 'project-fact' | 'user-fact' | 'preference' | 'knowledge-update' | 'abstention';

export interface EvalMemory {
  relPath: string;
  text: string;
  mtimeMs: number;
}

export interface EvalQuestion {
  id: string;
  category: QuestionCategory;
  question: string;
  /** The memory file that answers it; null for abstention. */
  answer: string | null;
  /** For a knowledge update: the older file the answer replaced. */
  superseded?: string;
}

export interface EvalFixture {
  memories: EvalMemory[];
  questions: EvalQuestion[];
  /** The clock the vault was generated against (memory ages are relative to it). */
  now: number;
}

const DAY = 86_400_000;
export const FIXTURE_NOW = Date.UTC(2026, 10, 30);

function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const PROJECTS = 'Atlas Borealis Cinder Dynamo Ember Falcon Granite Harbor Ion Juniper Kestrel Lumen Meridian Nimbus Onyx Pioneer Quartz Raven Sierra Tundra Umbra Vesper Willow Xenon Yarrow Zenith Aurora Basalt Cobalt Delta'.split(' ');
/** Projects the vault never mentions: questions about them have no answer. */
const UNKNOWN_PROJECTS = 'Orchid Pebble Saffron Tempest Wren Mosaic Lantern Thistle Glacier'.split(' ');
const PEOPLE = 'Priya Raman|Tomás Ortega|Aiko Tanaka|Nadia Haddad|Lars Eriksen|Chidi Okafor|Mei Lin|Rafael Souza|Ingrid Holm|Omar Farouk|Sofia Rossi|Kwame Mensah|Hana Novak|Diego Ramos|Elena Petrova|Yusuf Demir'.split('|');
const COMPANIES = 'Northwind|Globex|Initech|Umbrella Health|Stark Logistics|Wayne Retail|Acme Foods|Hooli|Vandelay Imports|Soylent Labs'.split('|');
const DATABASES = 'PostgreSQL|SQLite|DynamoDB|MongoDB|ClickHouse|Redis|BigQuery|CockroachDB'.split('|');
const MONTHS = 'January February March April May June July August September October November December'.split(' ');
const WEEKDAYS = 'Monday Tuesday Wednesday Thursday Friday'.split(' ');

interface Attribute {
  key: string;
  type: 'project' | 'reference';
  /** The description's words for the attribute. */
  phrase: string;
  value: (pick: Picker, p: string) => string;
  body: (p: string, v: string) => string;
  /** Question templates; the first uses the description's words, the others paraphrase. */
  ask: ((p: string) => string)[];
  /** Facts that change over time and so can be superseded. */
  changes?: boolean;
}

type Picker = { one<T>(xs: readonly T[]): T; int(lo: number, hi: number): number };

const date = (pick: Picker) => `${pick.one(MONTHS)} ${pick.int(1, 28)}, 2027`;

const ATTRIBUTES: Attribute[] = [
  {
    key: 'owner', type: 'project', phrase: 'project owner', changes: true,
    value: (pick) => pick.one(PEOPLE),
    body: (p, v) => `${v} owns ${p} and decides its scope. Ask ${v.split(' ')[0]} before changing what ${p} promises.`,
    ask: [(p) => `Who is the owner of ${p}?`, (p) => `Who is in charge of ${p}?`, (p) => `Who leads ${p} these days?`, (p) => `Who is responsible for ${p}?`],
  },
  {
    key: 'launch', type: 'project', phrase: 'launch date', changes: true,
    value: (pick) => date(pick),
    body: (p, v) => `${p} launches on ${v}. Marketing has booked the announcement for that morning.`,
    ask: [(p) => `When is the ${p} launch?`, (p) => `When is ${p} released?`, (p) => `What is the release date of ${p}?`, (p) => `When do we ship ${p}?`],
  },
  {
    key: 'database', type: 'project', phrase: 'database', changes: true,
    value: (pick) => pick.one(DATABASES),
    body: (p, v) => `${p} uses ${v} as its database. Migrations run from the deploy pipeline.`,
    ask: [(p) => `Which database does ${p} use?`, (p) => `Where does ${p} keep its records?`, (p) => `What persistence layer is behind ${p}?`],
  },
  {
    key: 'budget', type: 'project', phrase: 'budget', changes: true,
    value: (pick) => `$${pick.int(2, 90) * 5}k a quarter`,
    body: (p, v) => `${p} has a budget of ${v}. Anything above that goes to the finance review.`,
    ask: [(p) => `What is the budget for ${p}?`, (p) => `How much money can ${p} spend?`, (p) => `What funding does ${p} have this quarter?`],
  },
  {
    key: 'repository', type: 'reference', phrase: 'repository',
    value: (_pick, p) => `git.example.com/eng/${p.toLowerCase()}-service`,
    body: (p, v) => `The ${p} repository is ${v}. The main branch is protected.`,
    ask: [(p) => `Where is the ${p} repository?`, (p) => `Where can I find the ${p} source?`, (p) => `Which git repo holds ${p}?`],
  },
  {
    key: 'dashboard', type: 'reference', phrase: 'dashboard',
    value: (pick, p) => `grafana.example.com/d/${p.toLowerCase()}-${pick.int(100, 999)}`,
    body: (p, v) => `The ${p} dashboard is ${v}. Error rate is the top-left panel.`,
    ask: [(p) => `Which dashboard shows ${p}?`, (p) => `Where are the ${p} graphs?`, (p) => `Where do I look at ${p} monitoring?`],
  },
  {
    key: 'customer', type: 'project', phrase: 'customer', changes: true,
    value: (pick) => pick.one(COMPANIES),
    body: (p, v) => `${p} is built for ${v}. Their product lead joins the Thursday demo.`,
    ask: [(p) => `Who is the customer for ${p}?`, (p) => `Which client is ${p} built for?`, (p) => `Which account pays for ${p}?`],
  },
  {
    key: 'freeze', type: 'project', phrase: 'code freeze',
    value: (pick) => date(pick),
    body: (p, v) => `${p} code freeze starts ${v}. After that only fixes for blockers get in.`,
    ask: [(p) => `When is the ${p} code freeze?`, (p) => `When do we stop merging into ${p}?`, (p) => `When is ${p} frozen?`],
  },
  {
    key: 'oncall', type: 'project', phrase: 'oncall rotation', changes: true,
    value: (pick) => `${pick.one(PEOPLE)} and ${pick.one(PEOPLE)}`,
    body: (p, v) => `The ${p} oncall rotation is ${v}, one week each.`,
    ask: [(p) => `Who is oncall for ${p}?`, (p) => `Who gets paged when ${p} breaks?`, (p) => `What is the ${p} pager rotation?`],
  },
];

interface UserFact {
  key: string;
  describe: (v: string) => string;
  values: readonly string[];
  ask: readonly string[];
}

const USER_FACTS: UserFact[] = [
  { key: 'sister', describe: (v) => `User's sister is named ${v}`, values: ['Maya', 'Leila', 'Astrid'], ask: ['What is my sister called?', "Do you remember my sibling's name?"] },
  { key: 'dog', describe: (v) => `User's dog is called ${v}`, values: ['Biscuit', 'Pepper', 'Otto'], ask: ['What is my dog called?', 'What is the name of my pet?', "What's my puppy's name?"] },
  { key: 'city', describe: (v) => `User lives in ${v}`, values: ['Lisbon', 'Montreal', 'Osaka'], ask: ['Which city do I live in?', 'Where is my home?', 'What town am I based in?'] },
  { key: 'coffee', describe: (v) => `User's coffee order: ${v}`, values: ['oat flat white', 'double espresso', 'iced americano'], ask: ['How do I take my coffee?', 'What is my usual espresso drink?', 'What caffeine do I order?'] },
  { key: 'editor', describe: (v) => `User's preferred code editor is ${v}`, values: ['Neovim', 'VS Code', 'Zed'], ask: ['Which editor do I use?', 'What IDE do I prefer?'] },
  { key: 'allergy', describe: (v) => `User is allergic to ${v}`, values: ['peanuts', 'shellfish', 'penicillin'], ask: ['What am I allergic to?', 'Do I have any food intolerance?'] },
  { key: 'birthday', describe: (v) => `User's birthday is ${v}`, values: ['March 14', 'July 2', 'November 23'], ask: ['When is my birthday?', 'What day was I born?'] },
  { key: 'workout', describe: (v) => `User's workout schedule: ${v}`, values: ['Monday and Thursday at 7am', 'every weekday at lunch'], ask: ['When do I go to the gym?', 'What is my exercise routine?'] },
  { key: 'commute', describe: (v) => `User commutes by ${v}`, values: ['bike', 'the 8:05 train', 'ferry'], ask: ['How do I commute to work?', 'How do I travel to the office?'] },
  { key: 'language', describe: (v) => `User is learning ${v}`, values: ['Japanese', 'Portuguese', 'Finnish'], ask: ['Which language am I learning?', 'What am I studying in my lessons?'] },
  { key: 'partner', describe: (v) => `User's partner is ${v}`, values: ['Sam', 'Jordan', 'Noor'], ask: ["What's my partner's name?", 'What is my spouse called?'] },
  { key: 'timezone', describe: (v) => `User works in the ${v} timezone`, values: ['Europe/Lisbon', 'America/Toronto'], ask: ['What timezone am I in?', 'Which hours do I work in?'] },
  { key: 'diet', describe: (v) => `User's diet: ${v}`, values: ['vegetarian', 'pescatarian'], ask: ['What diet do I follow?', 'Am I vegetarian, what do I eat?'] },
];
/** Facts about the user the vault does not hold. */
const ABSENT_USER_QUESTIONS = ['What is my brother called?', 'What is my cat called?', 'What is my hobby?', 'What do I do on weekends?'];

const ACTIVITIES = 'commit messages|pull requests|status emails|meeting agendas|slide decks|SQL queries|unit tests|code comments|product updates|support replies|invoices|spreadsheets|changelogs|design docs|bug reports|interview feedback|expense reports|newsletters|blog posts|standup updates'.split('|');
const PREFERENCES: { key: string; describe: (a: string, v: string) => string; values: readonly string[]; ask: ((a: string) => string)[] }[] = [
  {
    key: 'length', describe: (a, v) => `Length of ${a}: keep them ${v}`, values: ['under 100 words', 'to one page', 'to three bullet points', 'short with no preamble'],
    ask: [(a) => `How long should my ${a} be?`, (a) => `Should ${a} be short or detailed?`, (a) => `Any word limit for ${a}?`],
  },
  {
    key: 'tone', describe: (a, v) => `Tone for ${a}: ${v}`, values: ['formal', 'casual and friendly', 'plain and direct'],
    ask: [(a) => `What tone should ${a} have?`, (a) => `Should ${a} be formal or casual?`, (a) => `What voice do I use for ${a}?`],
  },
  {
    key: 'review', describe: (a, v) => `Review of ${a}: ${v} must approve before they go out`, values: PEOPLE,
    ask: [(a) => `Who has to review ${a}?`, (a) => `Who needs to approve ${a} first?`, (a) => `Who signs off ${a}?`],
  },
];

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');

function memoryText(fields: { name: string; description: string; type: string }, body: string): string {
  return `---\nname: ${JSON.stringify(fields.name)}\ndescription: ${JSON.stringify(fields.description)}\ntype: ${fields.type}\n---\n\n${body}\n`;
}

export interface FixtureSize {
  /** Total memory files (the rest after facts, preferences and updates are meeting-note distractors). */
  memories: number;
  projectFactQuestions: number;
  preferenceQuestions: number;
  updates: number;
  unknownProjectQuestions: number;
}

export const DEFAULT_SIZE: FixtureSize = { memories: 500, projectFactQuestions: 100, preferenceQuestions: 45, updates: 40, unknownProjectQuestions: 26 };

/** Builds the vault and its questions. */
export function generateRecallFixture(seed = 21, size: FixtureSize = DEFAULT_SIZE): EvalFixture {
  const rand = rng(seed);
  const pick: Picker = {
    one: (xs) => xs[Math.floor(rand() * xs.length)]!,
    int: (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1)),
  };
  const shuffle = <T>(xs: T[]): T[] => {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [xs[i], xs[j]] = [xs[j]!, xs[i]!];
    }
    return xs;
  };
  const age = () => FIXTURE_NOW - pick.int(20, 400) * DAY - pick.int(0, DAY - 1);
  /** Real vaults hold some memories whose description says little; the selector only sees descriptions. */
  const vague = (p: string) => `Notes from the ${pick.one(WEEKDAYS)} ${p} sync`;

  const memories: EvalMemory[] = [];
  const questions: EvalQuestion[] = [];
  const add = (m: EvalMemory) => memories.push(m);

  // Project facts: every project × every attribute.
  const facts: { p: string; a: Attribute; relPath: string; mtimeMs: number }[] = [];
  for (const p of PROJECTS) {
    for (const a of ATTRIBUTES) {
      const v = a.value(pick, p);
      const relPath = `${a.type}_${slug(p)}_${a.key}.md`;
      const description = rand() < 0.08 ? vague(p) : `${p} ${a.phrase}: ${v}`;
      const mtimeMs = age();
      add({ relPath, mtimeMs, text: memoryText({ name: `${p} ${a.phrase}`, description, type: a.type }, a.body(p, v)) });
      facts.push({ p, a, relPath, mtimeMs });
    }
  }
  shuffle(facts);

  // Knowledge updates: a changing fact gets a newer memory; the question's answer is the newer file.
  const changing = facts.filter((f) => f.a.changes);
  const updated = changing.slice(0, size.updates);
  for (const [i, f] of updated.entries()) {
    const v = f.a.value(pick, f.p);
    const relPath = `${f.a.type}_${slug(f.p)}_${f.a.key}_update.md`;
    const mtimeMs = Math.min(FIXTURE_NOW - DAY, f.mtimeMs + pick.int(5, 120) * DAY);
    const description = `${f.p} ${f.a.phrase} changed to ${v}`;
    add({ relPath, mtimeMs, text: memoryText({ name: `${f.p} ${f.a.phrase} (changed)`, description, type: f.a.type }, `${f.a.body(f.p, v)} This replaces what we had before.`) });
    questions.push({ id: `ku-${i}`, category: 'knowledge-update', question: pick.one(f.a.ask)(f.p), answer: relPath, superseded: f.relPath });
  }
  const updatedPaths = new Set(updated.map((f) => f.relPath));
  for (const [i, f] of facts.filter((f) => !updatedPaths.has(f.relPath)).slice(0, size.projectFactQuestions).entries()) {
    questions.push({ id: `pf-${i}`, category: 'project-fact', question: pick.one(f.a.ask)(f.p), answer: f.relPath });
  }

  // Facts about the user: one memory and one question each.
  for (const [i, u] of USER_FACTS.entries()) {
    const relPath = `user_${u.key}.md`;
    const fact = u.describe(pick.one(u.values));
    add({ relPath, mtimeMs: age(), text: memoryText({ name: `User ${u.key}`, description: fact, type: 'user' }, `${fact}. Mentioned in passing while planning the week.`) });
    questions.push({ id: `uf-${i}`, category: 'user-fact', question: pick.one(u.ask), answer: relPath });
  }

  // Preferences: every activity × every aspect.
  const prefs: { relPath: string; activity: string; ask: ((a: string) => string)[] }[] = [];
  for (const activity of ACTIVITIES) {
    for (const pref of PREFERENCES) {
      const relPath = `feedback_${slug(activity)}_${pref.key}.md`;
      const description = pref.describe(activity, pick.one(pref.values));
      add({ relPath, mtimeMs: age(), text: memoryText({ name: `${activity} ${pref.key}`, description, type: 'feedback' }, `${description}.\n\n**Why:** the user asked for it after a rushed week.\n\n**How to apply:** every time ${activity} are drafted.`) });
      prefs.push({ relPath, activity, ask: pref.ask });
    }
  }
  for (const [i, f] of shuffle(prefs).slice(0, size.preferenceQuestions).entries()) {
    questions.push({ id: `pr-${i}`, category: 'preference', question: pick.one(f.ask)(f.activity), answer: f.relPath });
  }

  // Distractors: meeting notes that name a project and some of its topics without stating any fact.
  const topicWords = ATTRIBUTES.map((a) => a.phrase);
  for (let i = 0; memories.length < size.memories; i++) {
    const p = pick.one(PROJECTS);
    const body = `We talked about the ${p} ${pick.one(topicWords)} and the ${pick.one(topicWords)} but decided nothing. ${pick.one(PEOPLE)} will follow up.`;
    add({ relPath: `project_${slug(p)}_sync_${i}.md`, mtimeMs: age(), text: memoryText({ name: `${p} sync ${i}`, description: vague(p), type: 'project' }, body) });
  }

  // Abstention: projects the vault never mentions, and facts about the user it does not hold.
  for (let i = 0; i < size.unknownProjectQuestions; i++) {
    questions.push({ id: `ab-${i}`, category: 'abstention', question: pick.one(pick.one(ATTRIBUTES).ask)(pick.one(UNKNOWN_PROJECTS)), answer: null });
  }
  for (const [i, q] of ABSENT_USER_QUESTIONS.entries()) questions.push({ id: `ab-user-${i}`, category: 'abstention', question: q, answer: null });

  return { memories, questions, now: FIXTURE_NOW };
}
