import { promises as fs } from 'node:fs';
import path from 'node:path';
import { line, type Bench } from './harness.js';
import { benchDevice, benchRoot, FILES, note, startBenchServer, writeNotes } from './sync-bench-setup.js';

/**
 * Issue 8: bytes uploaded for one changed ~2 KB file in a 5,000-file team vault, against the full
 * upload of the same vault (the baseline). Target: under 2× the file.
 */
const bench: Bench = {
  name: 'sync-delta',
  async run() {
    const root = await benchRoot('strata-bench-delta-');
    const server = await startBenchServer(root);
    if (!server) return { skipped: 'server/ is not available' };
    try {
      const device = await benchDevice(root, 'a', server);
      await writeNotes(device.teamDir);
      const first = await device.engine.sync();
      if (first.error || first.pushed.length !== FILES) throw new Error(`initial upload failed: ${first.error?.message ?? first.pushed.length}`);
      const full = device.counter.uploaded;

      const changed = note(1234, 1);
      await fs.writeFile(path.join(device.teamDir, 'note-1234.md'), changed);
      device.counter.uploaded = 0;
      const delta = await device.engine.sync();
      if (delta.pushed.join() !== 'note-1234.md') throw new Error(`delta pushed ${delta.pushed.join(', ')}`);
      const fileBytes = Buffer.byteLength(changed);
      return [line('sync-delta', 'bytes-uploaded-one-change', 'bytes', device.counter.uploaded, full, { files: FILES, fileBytes, targetBytes: 2 * fileBytes })];
    } finally {
      await server.close();
      await fs.rm(root, { recursive: true, force: true });
    }
  },
};

export default bench;
