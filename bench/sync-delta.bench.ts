import { promises as fs } from 'node:fs';
import path from 'node:path';
import { line, type Bench } from './harness.js';
import { benchDevice, benchRoot, FILES, note, startBenchServer, writeNotes } from './sync-bench-setup.js';

/**
 * docs/memory.md#team-sync: bytes uploaded (PUT bodies) for one changed ~2 KB file in a 5,000-file team vault. The line's
 * baseline is the full upload of the same vault (`ratio` = full ÷ delta); `fileRatio` is delta ÷ the
 * file's size, whose target is under 2, and `targetMet` says whether it is.
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
      const uploaded = device.counter.uploaded;
      // A push that sent nothing would read as a perfect score: the counter missed the body.
      if (uploaded === 0) throw new Error('the delta push uploaded no counted bytes');
      const fileBytes = Buffer.byteLength(changed);
      const fileRatio = Math.round((uploaded / fileBytes) * 1000) / 1000;
      return [
        line('sync-delta', 'bytes-uploaded-one-change', 'bytes', uploaded, full, {
          files: FILES,
          fileBytes,
          fileRatio,
          targetFileRatio: 2,
          targetMet: fileRatio < 2,
        }),
      ];
    } finally {
      await server.close();
      await fs.rm(root, { recursive: true, force: true });
    }
  },
};

export default bench;
