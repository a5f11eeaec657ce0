// Prints the closing `N passed, N failed[, N skipped]` line from vitest's JSON reports (npm test writes one
// for the unit run and one for the e2e run), so a run that executed no test is visible at a glance.
// `--failed-steps lint,typecheck` counts the steps of `npm test` that failed before the tests (each one
// failure, named on stderr), so the last line never says `0 failed` for a run that failed. A missing
// report counts as a failure. Exits non-zero when anything failed.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const stepsAt = args.indexOf('--failed-steps');
const failedSteps = stepsAt === -1 ? [] : (args[stepsAt + 1] ?? '').split(',').filter(Boolean);
const given = args.filter((a, i) => !a.startsWith('--') && (stepsAt === -1 || i !== stepsAt + 1));
const files = given.length > 0 ? given : ['test-results/vitest.json'];
for (const step of failedSteps) console.error(`npm test: the ${step} step failed`);

let passed = 0;
let failed = failedSteps.length;
let skipped = 0;
for (const file of files) {
  let report;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    console.error(`summarize-results: no test report at ${file}`);
    failed += 1;
    continue;
  }
  passed += report.numPassedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A file that failed to load has no assertion results: one failure of its own.
  const suiteErrors = (report.testResults ?? []).filter((r) => r.status === 'failed' && (r.assertionResults ?? []).length === 0).length;
  failed += (report.numFailedTests ?? 0) + suiteErrors;
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(passed === 0 || failed > 0 ? 1 : 0);
