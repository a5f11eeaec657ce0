import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { MessageRecord } from '../../../../main/core/transcripts/records.js';
import type { ForkRequest, ForkResult } from '../../../../main/core/auto-memory/memory-extractor.js';

/** Builds a conversation of message records with stable uuids `m1`, `m2`, … */
export function conversation() {
  const records: MessageRecord[] = [];
  const add = (role: 'user' | 'assistant', content: MessageRecord['message']['content']) => {
    const n = records.length + 1;
    records.push({
      type: role,
      uuid: `m${n}`,
      parentUuid: n > 1 ? `m${n - 1}` : null,
      sessionId: 's1',
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
      cwd: '/project',
      message: { role, content },
    });
  };
  return {
    records,
    /** One complete turn: the user's text and the assistant's final answer. */
    turn(text: string, answer = 'ok') {
      add('user', text);
      add('assistant', [{ type: 'text', text: answer }]);
      return [...records];
    },
    /** A turn in which the main agent wrote a file itself, then answered. */
    writeTurn(file: string) {
      add('user', 'remember that');
      add('assistant', [{ type: 'tool_use', id: `t${records.length}`, name: 'Write', input: { file_path: file, content: 'x' } }]);
      add('user', [{ type: 'tool_result', tool_use_id: `t${records.length - 1}`, content: 'written' }]);
      add('assistant', [{ type: 'text', text: 'saved' }]);
      return [...records];
    },
  };
}

/** A deferred promise a test resolves when it wants a fork to finish. */
export function deferred<T = void>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * A fake fork: records each request, asks `canUseTool` for the writes it is scripted to make and performs
 * the allowed ones on disk (like the real loop would), then waits for `gate` if one is set.
 */
export function fakeFork(script: { writes?: { file_path: string; content: string }[]; fail?: string } = {}) {
  const calls: ForkRequest[] = [];
  const denied: { path: string; reason: string }[] = [];
  let gate: Promise<void> | null = null;
  const fork = async (request: ForkRequest): Promise<ForkResult> => {
    calls.push(request);
    if (gate) await gate;
    if (script.fail) throw new Error(script.fail);
    const wrote: string[] = [];
    for (const w of script.writes ?? []) {
      const decision = await request.canUseTool('Write', { ...w });
      if (decision.behavior === 'deny') {
        denied.push({ path: w.file_path, reason: decision.message });
        continue;
      }
      const target = decision.updatedInput!.file_path as string;
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, w.content);
      wrote.push(target);
    }
    return { usage: { input_tokens: 10, output_tokens: 5 }, cacheHitRatio: 0.9, wrotePaths: wrote };
  };
  return {
    fork,
    calls,
    denied,
    hold() {
      const d = deferred();
      gate = d.promise;
      return () => {
        gate = null;
        d.resolve();
      };
    },
  };
}
