import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';

/** `npm test`'s closing line (scripts/test.sh → scripts/summarize-results.mjs), run as the script runs it. */
async function summarize(report: object | null, ...args: string[]) {
  const dir = await tempDir();
  const file = path.join(dir, 'vitest.json');
  if (report) await fs.writeFile(file, JSON.stringify(report));
  const r = spawnSync(process.execPath, ['scripts/summarize-results.mjs', file, ...args], { encoding: 'utf8' });
  return { status: r.status, lines: r.stdout.trim().split('\n'), stderr: r.stderr };
}

const green = { numPassedTests: 812, numFailedTests: 0, numPendingTests: 3, testResults: [] };

describe("npm test's closing line", () => {
  it('reads N passed, 0 failed and exits 0 when everything passed', async () => {
    const r = await summarize(green, '--failed-steps', '');
    expect(r.lines.at(-1)).toBe('812 passed, 0 failed, 3 skipped');
    expect(r.status).toBe(0);
  });

  it('counts a failed lint or typecheck step, names it, and exits 1 even when every test passed', async () => {
    const r = await summarize(green, '--failed-steps', 'lint,typecheck');
    expect(r.lines.at(-1)).toBe('812 passed, 2 failed, 3 skipped');
    expect(r.stderr).toContain('the lint step failed');
    expect(r.stderr).toContain('the typecheck step failed');
    expect(r.status).toBe(1);
  });

  it('counts a file that failed to load, and a missing report, as failures', async () => {
    const broken = { numPassedTests: 5, numFailedTests: 0, testResults: [{ status: 'failed', assertionResults: [] }] };
    expect((await summarize(broken)).lines.at(-1)).toBe('5 passed, 1 failed');
    const missing = await summarize(null, '--failed-steps', 'build');
    expect(missing.lines.at(-1)).toBe('0 passed, 2 failed');
    expect(missing.status).toBe(1);
  });

  it('adds up the unit and the e2e reports, and counts a missing one as a failure', async () => {
    const dir = await tempDir();
    const unit = path.join(dir, 'unit.json');
    const e2e = path.join(dir, 'e2e.json');
    await fs.writeFile(unit, JSON.stringify(green));
    await fs.writeFile(e2e, JSON.stringify({ numPassedTests: 40, numFailedTests: 1, numPendingTests: 1, testResults: [] }));
    const run = (...files: string[]) => spawnSync(process.execPath, ['scripts/summarize-results.mjs', ...files, '--failed-steps', ''], { encoding: 'utf8' });
    const both = run(unit, e2e);
    expect(both.stdout.trim()).toBe('852 passed, 1 failed, 4 skipped');
    expect(both.status).toBe(1);
    const oneMissing = run(unit, path.join(dir, 'gone.json'));
    expect(oneMissing.stdout.trim()).toBe('812 passed, 1 failed, 3 skipped');
    expect(oneMissing.stderr).toContain('no test report');
    expect(oneMissing.status).toBe(1);
  });
});
