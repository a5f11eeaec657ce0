import { scanText } from './main/core/secrets/index.js';
import { generateFixtures } from './test/fixtures/secrets/generate.js';
const { positives, negatives } = generateFixtures();
let hit = 0;
for (const p of positives) {
  const f = scanText(p.text);
  if (f.some((x) => x.rule === p.rule && x.line === p.line)) hit++;
  else console.log('MISS', p.id, p.rule, p.line, JSON.stringify(f), '\n   ', p.text.split('\n')[p.line! - 1]?.slice(0, 200));
}
let fp = 0;
for (const n of negatives) {
  const f = scanText(n.text);
  if (f.length) { fp++; console.log('FP', n.id, JSON.stringify(f), '\n   ', n.text.slice(0, 300).replace(/\n/g, ' / ')); }
}
console.log(`positives ${positives.length} recall ${(100 * hit / positives.length).toFixed(2)} negatives ${negatives.length} fp ${(100 * fp / negatives.length).toFixed(2)}`);
