// A process that takes processIo's first signal but does not end on it (as a command stuck in its
// cleanup would), so the test can see the second signal end it at once.
import { processIo } from '../../../main/cli/process-io.js';

const io = processIo();
io.signal.addEventListener('abort', () => io.stdout(`aborted: ${(io.signal.reason as Error).message}`));
setInterval(() => undefined, 1_000);
io.stdout('ready');
