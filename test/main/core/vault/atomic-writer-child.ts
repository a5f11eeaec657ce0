// Run as a child process by atomic-crash.test.ts: rewrites ten files in a loop with writeFileAtomic
// until it is killed. Each content is one JSON document, so a torn file fails to parse.
import path from 'node:path';
import { writeFileAtomic } from '../../../../main/core/fs/atomic-write.js';

const dir = process.argv[2]!;
let round = 0;
for (;;) {
  for (let i = 0; i < 10; i++) {
    const payload = 'x'.repeat(1_000 + ((round * 7919 + i * 104_729) % 400_000));
    await writeFileAtomic(path.join(dir, `f${i}.md`), JSON.stringify({ round, i, payload }));
  }
  if (round === 0) process.stdout.write('started\n');
  round++;
}
