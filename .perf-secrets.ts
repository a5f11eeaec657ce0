import { scanText } from './main/core/secrets/index.js';
import { generateNotes } from './test/fixtures/secrets/generate.js';
const notes = generateNotes(4_000_000);
const bytes = notes.reduce((n, s) => n + s.length, 0);
for (let k = 0; k < 3; k++) {
  const t = performance.now();
  let f = 0;
  for (const n of notes) f += scanText(n).length;
  const ms = performance.now() - t;
  console.log(`notes ${notes.length} MB ${(bytes / 1e6).toFixed(2)} ${(bytes / 1e6 / (ms / 1000)).toFixed(1)} MB/s findings ${f}`);
}
const big = notes.join('\n\n');
let t = performance.now(); scanText(big); console.log('one big text MB/s', (big.length / 1e6 / ((performance.now() - t) / 1000)).toFixed(1));
for (const [name, s] of [
  ['a', 'a'.repeat(1_000_000)], ['A', 'A'.repeat(1_000_000)], ['0', '0'.repeat(1_000_000)],
  ['password=', 'password='.repeat(111_111)], ['key: ', 'api_key: '.repeat(111_111)], ['sk-', 'sk-'.repeat(333_333)],
  ['://a:', '://a:'.repeat(200_000)], ['eyJ', 'eyJ'.repeat(333_333)], ['eyJ.', 'eyJhbGciOiJIUzI1NiIsInR5cCI6.'.repeat(35_000)],
  ['BEGIN', '-----BEGIN RSA PRIVATE KEY-----\\n'.repeat(30_000)], ['b64', Buffer.alloc(750_000, 7).toString('base64')],
  ['M', 'MTIzNDU2Nzg5MDEyMzQ1Njc4.'.repeat(40_000)], ['token', 'token'.repeat(200_000)], ['://', 'postgres://user:pass'.repeat(50_000)],
  ['Q~', 'abc1Q~'.repeat(166_666)], ['digits:', '123456789:AA'.repeat(83_333)], ['hooks', 'hooks.slack.com/services/'.repeat(40_000)],
  ['spaces', 'password' + ' '.repeat(1_000_000)], ['-u', ' -u a:'.repeat(166_666)], ['auth', 'Authorization: Bearer '.repeat(45_000)],
] as const) {
  t = performance.now(); const f = scanText(s); console.log(name, (performance.now() - t).toFixed(0), 'ms', f.length);
}
