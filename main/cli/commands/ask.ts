import { randomUUID } from 'node:crypto';
import { isValidSessionId } from '../../core/paths/index.js';
import { cliServices } from '../cli-services.js';
import { UsageError, untilAborted, type Command } from '../cli-io.js';
import { existingFolder, parseOptions, required, vaultAndJson } from '../options.js';

/** docs/architecture.md: the end-of-turn memory engines get at most this long before `ask` returns. */
const MEMORY_WAIT_MS = 60_000;
/** After SIGINT/SIGTERM the engines get this long to close: memory writes are atomic, a cut one loses that update only. */
const CLOSE_ON_SIGNAL_MS = 300;

/**
 * `strata ask --project DIR [--session ID] [--allow-writes] [--no-memory] [--vault DIR] [--json] PROMPT`:
 * one turn of the main agent with the app's own session engine, no one at the screen — writes outside
 * the memory folders are denied unless `--allow-writes`.
 */
export const askCommand: Command = {
  name: 'ask',
  summary: 'one non-interactive turn of the main agent',
  usage: 'strata ask --project DIR [--session ID] [--allow-writes] [--no-memory] [--vault DIR] [--json] PROMPT',
  async run(argv, io) {
    const { values, positionals } = parseOptions(
      argv,
      {
        project: { type: 'string' },
        session: { type: 'string' },
        'allow-writes': { type: 'boolean', default: false },
        'no-memory': { type: 'boolean', default: false },
        ...vaultAndJson,
      },
      { positionals: true },
    );
    const prompt = positionals.join(' ').trim();
    const projectFlag = required(values.project, '--project DIR');
    if (!prompt) throw new UsageError('a PROMPT is required');
    if (values.session !== undefined && !isValidSessionId(values.session)) throw new UsageError(`not a session id: ${values.session}`);
    const project = await existingFolder(projectFlag, '--project');

    const services = await cliServices(io, values.vault, 'cli');
    const signal = io.signal;
    // The first SIGINT/SIGTERM stops the turn (stream and tools aborted, the transcript stays whole).
    let stopTurn: () => void = () => undefined;
    const onAbort = () => stopTurn();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const vault = services.vault();
      const sessionId = values.session ?? randomUUID();
      if (values.session && !(await vault.transcripts.exists((await vault.sessions.paths(project)).projectSlug, sessionId))) {
        throw new UsageError(`no conversation ${sessionId} in ${project}`);
      }
      const memory = !values['no-memory'];
      const session = vault.chat.session(project, sessionId, { writes: values['allow-writes'] ? 'allow' : 'deny', memory });
      stopTurn = () => void session.stop();
      signal?.throwIfAborted();
      await session.send(prompt);
      await session.settled();
      signal?.throwIfAborted();
      if (memory) await untilAborted(Promise.race([session.idle(), new Promise((resolve) => setTimeout(resolve, MEMORY_WAIT_MS).unref())]), signal);
      const outcome = session.lastOutcome;
      const transcript = (await vault.sessions.paths(project)).transcriptFile(sessionId);
      if (!outcome || outcome.error) {
        io.stderr(`strata ask: ${outcome?.error?.message ?? 'the turn did not run'}`);
        return 1;
      }
      if (values.json) io.stdout(JSON.stringify({ sessionId, transcript, answer: outcome.answer, usage: outcome.usage }));
      else io.stdout(outcome.answer);
      return 0;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      const closed = services.close();
      await (signal?.aborted ? Promise.race([closed, new Promise((resolve) => setTimeout(resolve, CLOSE_ON_SIGNAL_MS).unref())]) : closed);
    }
  },
};
