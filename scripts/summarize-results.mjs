// Prints the closing `N passed, N failed[, N skipped]` line from vitest's JSON report, so a run that
// executed no test is visible at a glance. Exits non-zero when the report is missing or empty.
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? 'test-results/vitest.json';
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch {
  console.log('0 passed, 1 failed');
  console.error(`summarize-results: no test report at ${file}`);
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
const failed = report.numFailedTests ?? 0;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
const suiteErrors = (report.testResults ?? []).filter((r) => r.status === 'failed' && (r.assertionResults ?? []).length === 0).length;
console.log(`${passed} passed, ${failed + suiteErrors} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(passed === 0 || failed + suiteErrors > 0 ? 1 : 0);
