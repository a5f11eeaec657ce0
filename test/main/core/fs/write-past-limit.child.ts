// Run by atomic-write.test.ts under `ulimit -f` (SIGXFSZ ignored): a write past the limit fails with
// EFBIG, as on a full disk. Prints the error code, then the folder's names.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../../../main/core/fs/atomic-write.js';

const dir = process.argv[2]!;
let outcome = 'wrote';
try {
  await writeFileAtomic(path.join(dir, 'big.md'), 'x'.repeat(200_000));
} catch (error) {
  outcome = (error as NodeJS.ErrnoException).code ?? 'error';
}
process.stdout.write(`${JSON.stringify({ outcome, names: readdirSync(dir) })}\n`);
