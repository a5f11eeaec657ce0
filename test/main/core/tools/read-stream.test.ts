import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { defaultTools, ReadState, realScope, runTool, type ToolContext } from '../../../../main/core/tools/index.js';
import { tempDir } from '../../../support/temp-dir.js';

const tool = (name: string) => defaultTools().find((t) => t.name === name)!;
const limits = defaultMemoryConfig.agent;

async function setup() {
  const root = await tempDir();
  const project = path.join(root, 'project');
  await fs.mkdir(project);
  const ctx: ToolContext = {
    scope: await realScope({ project, memory: [], readOnly: [] }),
    readState: new ReadState(),
    limits,
    permissionGate: { requestPermission: async () => 'allow_once' },
  };
  return { project, ctx };
}

/** Peak of heap + buffers above the level at the start, sampled while `work` runs. */
async function peakMemoryDuring<T>(work: () => Promise<T>): Promise<{ result: T; peakBytes: number }> {
  const used = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const base = used();
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, used())), 2);
  try {
    const result = await work();
    peak = Math.max(peak, used());
    return { result, peakBytes: peak - base };
  } finally {
    clearInterval(timer);
  }
}

/** The whole-file reading Read used to do, as the oracle for what the streamed window must return. */
function expected(content: string, offset: number | undefined, limit: number | undefined): string {
  const lines = content.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  const start = Math.max(0, (offset ?? 1) - 1);
  return lines
    .slice(start, start + (limit ?? limits.readDefaultLines))
    .map((l, i) => `${String(start + i + 1).padStart(6)}\t${l.length > limits.readMaxLineChars ? `${l.slice(0, limits.readMaxLineChars)}… [line truncated]` : l}`)
    .join('\n');
}

describe('Read streams only the lines asked for', () => {
  it('returns lines of a 700 MB file fast, with bounded memory', async () => {
    const { project, ctx } = await setup();
    const file = path.join(project, 'huge.log');
    const head = Array.from({ length: 2_000 }, (_, i) => `line ${i + 1} of the log`).join('\n');
    await fs.writeFile(file, `${head}\n`);
    await fs.truncate(file, 700 * 1024 * 1024); // the rest a hole: no disk used, but 700 MB to read whole

    const started = Date.now();
    const { result, peakBytes } = await peakMemoryDuring(() => runTool(tool('Read'), { file_path: file, offset: 1_000, limit: 3 }, ctx));
    expect(result.isError).toBeFalsy();
    expect(result.content).toBe('  1000\tline 1000 of the log\n  1001\tline 1001 of the log\n  1002\tline 1002 of the log');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(peakBytes).toBeLessThan(32 * 1024 * 1024);
  });

  it('keeps only the start of a 40 MB single line', async () => {
    const { project, ctx } = await setup();
    const file = path.join(project, 'one-line.json');
    await fs.writeFile(file, `first\n${'é'.repeat(20 * 1024 * 1024)}\nlast\n`);
    const { result, peakBytes } = await peakMemoryDuring(() => runTool(tool('Read'), { file_path: file, offset: 2, limit: 2 }, ctx));
    expect(result.content).toBe(`     2\t${'é'.repeat(limits.readMaxLineChars)}… [line truncated]\n     3\tlast`);
    expect(peakBytes).toBeLessThan(32 * 1024 * 1024);
  });

  it('stops at the Read size limit and says which offset comes next', async () => {
    const { project, ctx } = await setup();
    const file = path.join(project, 'wide.txt');
    await fs.writeFile(file, Array.from({ length: 1_000 }, (_, i) => `${i + 1} ${'w'.repeat(1_000)}`).join('\n'));
    const result = await runTool(tool('Read'), { file_path: file, offset: 1, limit: 1_000 }, ctx);
    expect(Buffer.byteLength(result.content)).toBeLessThanOrEqual(limits.readMaxBytes + 200);
    const shown = result.content.split('\n').filter((l) => /^ +\d+\t/.test(l));
    expect(shown.length).toBeGreaterThan(100);
    expect(shown.length).toBeLessThan(1_000);
    expect(result.content.split('\n').at(-1)).toBe(
      `<system-reminder>Output stopped at the ${limits.readMaxBytes / 1024} KB Read limit; continue with offset ${shown.length + 1}.</system-reminder>`,
    );
  });

  it('matches whole-file reading for any window, line ending and multi-byte text across chunk boundaries', async () => {
    const { project, ctx } = await setup();
    // Lines of 0–9,000 characters, some with \r\n, some with 2–4 byte characters, over several 64 KiB chunks.
    const alphabet = ['a', 'é', '中', '😀', ' '];
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const lines = Array.from({ length: 400 }, () => Array.from({ length: rand(9_000) }, () => alphabet[rand(alphabet.length)]).join(''));
    for (const [name, content] of [
      ['lf.txt', `${lines.join('\n')}\n`],
      ['crlf.txt', lines.join('\r\n')],
      ['mixed.txt', lines.map((l, i) => (i % 3 === 0 ? `${l}\r\n` : `${l}\n`)).join('')],
    ] as const) {
      const file = path.join(project, name);
      await fs.writeFile(file, content);
      for (const [offset, limit] of [[1, 30], [37, 5], [399, 10], [250, 1], [120, undefined]] as [number, number | undefined][]) {
        const result = await runTool(tool('Read'), { file_path: file, offset, limit }, { ...ctx, limits: { ...limits, readMaxBytes: 64 * 1024 * 1024 } });
        expect(result.content, `${name} ${offset}+${limit}`).toBe(expected(content, offset, limit));
      }
    }
  });

  it('counts the lines of a file shorter than the offset, and says when a file is empty', async () => {
    const { project, ctx } = await setup();
    await fs.writeFile(path.join(project, 'short.txt'), 'a\nb\nc');
    await fs.writeFile(path.join(project, 'empty.txt'), '');
    expect((await runTool(tool('Read'), { file_path: 'short.txt', offset: 9 }, ctx)).content).toContain('The file has 3 lines.');
    expect((await runTool(tool('Read'), { file_path: 'empty.txt' }, ctx)).content).toContain('the contents are empty');
  });

  it('lets Edit change a file after a streamed Read of part of it', async () => {
    const { project, ctx } = await setup();
    const file = path.join(project, 'notes.md');
    await fs.writeFile(file, Array.from({ length: 5_000 }, (_, i) => `item ${i}`).join('\n'));
    await runTool(tool('Read'), { file_path: file, offset: 10, limit: 2 }, ctx);
    const edit = await runTool(tool('Edit'), { file_path: file, old_string: 'item 4999', new_string: 'item last' }, ctx);
    expect(edit.isError).toBeFalsy();
    expect(await fs.readFile(file, 'utf8')).toMatch(/item last$/);
  });
});

describe('Read, Grep and Write refuse FIFOs, devices and sockets', () => {
  async function specials(project: string) {
    const fifo = path.join(project, 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const sock = path.join(project, 'app.sock');
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(sock, resolve));
    return { fifo, sock, close: () => new Promise((resolve) => server.close(resolve)) };
  }

  it('Read of a FIFO or a socket fails at once with a clear message', async () => {
    const { project, ctx } = await setup();
    const s = await specials(project);
    try {
      const fifo = await runTool(tool('Read'), { file_path: s.fifo }, ctx);
      expect(fifo).toEqual({ isError: true, content: `${s.fifo} is a named pipe (FIFO), not a regular file; Read and Grep only read regular files.` });
      const withRange = await runTool(tool('Read'), { file_path: 'pipe', offset: 1, limit: 1 }, ctx);
      expect(withRange.content).toContain('is a named pipe (FIFO)');
      expect((await runTool(tool('Read'), { file_path: s.sock }, ctx)).content).toContain('is a socket, not a regular file');
    } finally {
      await s.close();
    }
  });

  it('Read of a character device is refused (a project at /dev, as no test may create a device node)', async () => {
    const { ctx } = await setup();
    const scoped = { ...ctx, scope: await realScope({ project: '/dev', memory: [], readOnly: [] }) };
    const zero = await runTool(tool('Read'), { file_path: '/dev/zero', offset: 1, limit: 1 }, scoped);
    expect(zero).toEqual({ isError: true, content: '/dev/zero is a character device, not a regular file; Read and Grep only read regular files.' });
  });

  it('Grep over a FIFO is refused, and a folder holding one is searched without blocking on it', async () => {
    const { project, ctx } = await setup();
    const s = await specials(project);
    try {
      await fs.writeFile(path.join(project, 'a.md'), 'needle here\n');
      const direct = await runTool(tool('Grep'), { pattern: 'needle', path: s.fifo }, ctx);
      expect(direct).toMatchObject({ isError: true });
      expect(direct.content).toContain('is a named pipe (FIFO)');
      const folder = await runTool(tool('Grep'), { pattern: 'needle', output_mode: 'files_with_matches' }, ctx);
      expect(folder.content).toBe(`Found 1 file\n${path.join(project, 'a.md')}`);
    } finally {
      await s.close();
    }
  });

  it('Write over a FIFO is refused instead of blocking', async () => {
    const { project, ctx } = await setup();
    const s = await specials(project);
    try {
      const write = await runTool(tool('Write'), { file_path: s.fifo, content: 'x' }, ctx);
      expect(write).toMatchObject({ isError: true });
      expect(write.content).toContain('is a named pipe (FIFO), not a regular file');
    } finally {
      await s.close();
    }
  });
});
