/**
 * The recall-quality fixture's vocabulary: each concept with the words that mean it. The generator
 * writes memories with a concept's first word and asks questions with any of its words (a paraphrase);
 * the scripted selector reads descriptions through the same table, standing in for a model that knows
 * "in charge of" means "owns". The offline ranker gets no such help: it only sees the words.
 */
export const CONCEPTS: Record<string, readonly string[]> = {
  owner: ['owner', 'owns', 'charge', 'leads', 'responsible', 'runs'],
  launch: ['launch', 'launches', 'release', 'released', 'ship', 'ships'],
  database: ['database', 'data', 'stores', 'records', 'persistence'],
  budget: ['budget', 'money', 'spend', 'funding', 'afford'],
  repository: ['repository', 'repo', 'source', 'git', 'codebase'],
  dashboard: ['dashboard', 'graphs', 'charts', 'monitoring'],
  customer: ['customer', 'client', 'buyer', 'account'],
  freeze: ['freeze', 'merging', 'lockdown', 'frozen'],
  oncall: ['oncall', 'paged', 'pager', 'rota', 'rotation'],
  sister: ['sister', 'sibling'],
  brother: ['brother'],
  dog: ['dog', 'puppy', 'pet'],
  cat: ['cat', 'kitten'],
  city: ['city', 'lives', 'home', 'town'],
  coffee: ['coffee', 'espresso', 'latte', 'caffeine'],
  editor: ['editor', 'ide', 'vim', 'emacs'],
  allergy: ['allergy', 'allergic', 'intolerance'],
  birthday: ['birthday', 'born'],
  workout: ['workout', 'gym', 'exercise', 'training'],
  commute: ['commute', 'commutes', 'travel', 'travels', 'train'],
  language: ['language', 'learning', 'studying', 'lessons'],
  partner: ['partner', 'spouse', 'wife', 'husband'],
  timezone: ['timezone', 'hours', 'clock'],
  diet: ['diet', 'vegetarian', 'vegan', 'eat'],
  hobby: ['hobby', 'weekends', 'spare', 'free'],
  length: ['length', 'short', 'long', 'words', 'brief', 'concise'],
  tone: ['tone', 'formal', 'casual', 'voice', 'friendly'],
  review: ['review', 'approve', 'approval', 'sign', 'signs', 'checks'],
};

const WORD_TO_CONCEPT = new Map<string, string>();
for (const [concept, words] of Object.entries(CONCEPTS)) for (const w of words) WORD_TO_CONCEPT.set(w, concept);

/** Question words and glue that carry no meaning for matching. */
const GLUE = new Set(
  ('a an and are as at be but by can could did do does for from had has have how i if in into is it its me my ' +
    'am not of on or our should so that the their them then there these they this to was we were what when where ' +
    'which who why will with would you your any all also just more most no only other same some than too very ' +
    'us get got make want need know tell called named name whats what\'s these days right now currently ' +
    'current project user users about notes note team thing things').split(' '),
);

/** The words of a text, lower-cased, split on anything but letters, digits and apostrophes. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}']+/u).filter(Boolean);
}

/** The concepts and the other meaningful words of a text (a word with no concept stands for itself). */
export function meaningOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of wordsOf(text)) {
    if (GLUE.has(w)) continue;
    const bare = w.replace(/'s$/, '');
    out.add(WORD_TO_CONCEPT.get(bare) ?? bare);
  }
  return out;
}
