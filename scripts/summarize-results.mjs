// Prints the closing `N passed, N failed[, N skipped]` line from vitest's JSON report, so a run that
// executed no test is visible at a glance. `--failed-steps lint,typecheck` counts the steps of
// `npm test` that failed before the tests (each one failure, named on stderr), so the last line never
// says `0 failed` for a run that failed. Exits non-zero when anything failed or the report is missing.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const stepsAt = args.indexOf('--failed-steps');
const failedSteps = stepsAt === -1 ? [] : (args[stepsAt + 1] ?? '').split(',').filter(Boolean);
const file = args.find((a, i) => !a.startsWith('--') && (stepsAt === -1 || i !== stepsAt + 1)) ?? 'test-results/vitest.json';
for (const step of failedSteps) console.error(`npm test: the ${step} step failed`);

let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch {
  console.log(`0 passed, ${1 + failedSteps.length} failed`);
  console.error(`summarize-results: no test report at ${file}`);
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
const failed = report.numFailedTests ?? 0;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
const suiteErrors = (report.testResults ?? []).filter((r) => r.status === 'failed' && (r.assertionResults ?? []).length === 0).length;
const allFailed = failed + suiteErrors + failedSteps.length;
console.log(`${passed} passed, ${allFailed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(passed === 0 || allFailed > 0 ? 1 : 0);
