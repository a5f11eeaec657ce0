import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../main/core/fs/atomic-write.js';
import { serializeRecords } from '../main/core/transcripts/jsonl.js';
import { TranscriptStore } from '../main/core/transcripts/transcript-store.js';
import { TranscriptBuilder } from '../test/fixtures/transcripts/transcript-builder.js';
import { line, median, type Bench } from './harness.js';
import { benchDir } from './vault-fixture.js';

const MESSAGES = 10_000;
const SAMPLES = 40;
const PROJECT = '-home-user-bench';
const SESSION = 'bench-append-session';

/** A conversation of `count` records: questions, answers and tool rounds, Claude Code-shaped. */
function conversation(count: number): TranscriptBuilder {
  const b = new TranscriptBuilder(SESSION, '/home/user/bench');
  for (let turn = 0; b.records.length < count; turn++) {
    b.user(`Question ${turn}: ${'could you look at the parser and explain what it does? '.repeat(4)}`);
    if (turn % 3 === 0) b.toolRound('Read', { file_path: `/home/user/bench/src/f${turn}.ts` }, 'const x = 1;\n'.repeat(20));
    b.assistant([{ type: 'text', text: `Answer ${turn}: ${'here is what I found in the code. '.repeat(8)}` }]);
  }
  b.records.length = count;
  return b;
}

/** Times `SAMPLES` single-message writes, each one more message after the 10,000 already there. */
async function perMessage(write: (n: number) => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    await write(i);
    times.push(performance.now() - started);
  }
  return median(times);
}

/**
 * docs/architecture.md#the-agent: the cost of appending one message to a transcript that already holds 10,000, with
 * `TranscriptStore.append` (one write of whole lines + fsync), against rewriting the whole file
 * atomically for each message (temp file + fsync + rename), ms per message (median of 40).
 */
const bench: Bench = {
  name: 'transcript-append',
  async run() {
    const root = benchDir('transcript-append');
    await fs.rm(root, { recursive: true, force: true });
    const records = conversation(MESSAGES + SAMPLES).records;
    const initial = records.slice(0, MESSAGES);
    const next = records.slice(MESSAGES);

    const store = new TranscriptStore({ vaultRoot: root });
    const file = store.fileFor(PROJECT, SESSION);
    await store.append(PROJECT, SESSION, initial);
    const fileBytes = (await fs.stat(file)).size;
    const append = await perMessage((i) => store.append(PROJECT, SESSION, [next[i]!]));

    const rewritten = path.join(root, 'rewrite', `${SESSION}.jsonl`);
    const held = [...initial];
    await writeFileAtomic(rewritten, serializeRecords(held), { mode: 0o600 });
    const rewrite = await perMessage(async (i) => {
      held.push(next[i]!);
      await writeFileAtomic(rewritten, serializeRecords(held), { mode: 0o600 });
    });

    const [appended, whole] = await Promise.all([fs.readFile(file, 'utf8'), fs.readFile(rewritten, 'utf8')]);
    if (appended !== whole) throw new Error('the appended transcript differs from the rewritten one');
    await fs.rm(root, { recursive: true, force: true });
    return [
      line('transcript-append', 'per-message-at-10k', 'ms', append, rewrite, {
        messages: MESSAGES,
        samples: SAMPLES,
        fileMB: Math.round((fileBytes / 1024 / 1024) * 10) / 10,
        baselineMethod: 'rewrite the whole file atomically',
      }),
    ];
  },
};
export default bench;
