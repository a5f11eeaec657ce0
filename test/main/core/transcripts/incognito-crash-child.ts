import { TranscriptStore } from '../../../../main/core/transcripts/index.js';
import { recordMaker } from './record-builders.js';

/**
 * A Strata that has an incognito conversation and then crashes: its transcript is written to the private
 * temp folder, and the process dies by SIGKILL, so no quit handler removes it. argv: vault root, temp folder.
 */
const [vaultRoot, tempDir] = process.argv.slice(2) as [string, string];
const store = new TranscriptStore({ vaultRoot, tempDir });
const sessionId = '0d4b7a52-3c1e-4f6a-9b8d-2e5f7a1c9d30';
store.incognito.add(sessionId);
const make = recordMaker(sessionId);
await store.append('-home-u-proj', sessionId, [make.user('A secret question'), make.assistant('A private answer')]);
process.stdout.write(`${store.fileFor('-home-u-proj', sessionId)}\n`);
process.kill(process.pid, 'SIGKILL');
