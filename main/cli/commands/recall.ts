import { explainLines, whyLine } from '../../core/auto-memory/index.js';
import { cliServices } from '../cli-services.js';
import { UsageError, type Command } from '../cli-io.js';
import { existingFolder, parseOptions, vaultAndJson } from '../options.js';

/**
 * `strata recall [--project DIR] [--vault DIR] [--offline] [--json] [--explain] QUESTION` (docs/memory.md#recall):
 * what a chat turn in that project would attach for QUESTION, in order — through the model's choice when a
 * key is set, else (or with --offline) the local ranking — and with --explain the parts of each choice.
 * Reads only: nothing is attached, counted or written.
 */
export const recallCommand: Command = {
  name: 'recall',
  summary: 'show which memories a chat turn would recall for a question, and why',
  usage: 'strata recall [--project DIR] [--vault DIR] [--offline] [--json] [--explain] QUESTION',
  async run(argv, io) {
    const { values, positionals } = parseOptions(
      argv,
      { project: { type: 'string' }, offline: { type: 'boolean', default: false }, explain: { type: 'boolean', default: false }, ...vaultAndJson },
      { positionals: true },
    );
    const question = positionals.join(' ').trim();
    if (!question) throw new UsageError('give a QUESTION to recall memories for');
    const project = await existingFolder(values.project ?? process.cwd(), '--project');
    const services = await cliServices(io, values.vault, 'cli', { warnWithoutKeychain: false });
    try {
      const result = await services.vault().recall(project, question, { offline: values.offline, ...(io.signal ? { signal: io.signal } : {}) });
      const picks = new Map(result.explain.picks.map((p) => [p.relPath, p]));
      if (values.json) {
        const memories = result.memories.map((m) => ({ path: m.absPath, title: m.title, ageDays: m.ageDays, bytes: m.bytes, ...(values.explain ? { why: picks.get(m.relPath), reason: whyLine(picks.get(m.relPath)!) } : {}) }));
        io.stdout(JSON.stringify({ method: result.method, memories, ...(values.explain ? { explain: result.explain } : {}) }));
        return 0;
      }
      if (result.memories.length === 0) io.stdout(`no memory recalled for "${question}"`);
      result.memories.forEach((m, i) => {
        io.stdout(`${i + 1}. ${m.title}  (${m.absPath}, saved ${m.ageDays === 0 ? 'today' : `${m.ageDays} d ago`})`);
        if (values.explain) io.stdout(`   ${whyLine(picks.get(m.relPath)!)}`);
      });
      if (values.explain || result.memories.length === 0) for (const line of explainLines(result)) io.stdout(`· ${line}`);
      return 0;
    } finally {
      await services.close();
    }
  },
};
