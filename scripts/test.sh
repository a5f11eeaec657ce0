#!/usr/bin/env bash
# `npm test`: lint, typecheck, build, then every vitest project (unit, integration, e2e) with the
# services they need (scripts/with-services.sh), ending with one `N passed, N failed` line.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results

started=$(date +%s)
step() { printf '\n== %s (%ss in)\n' "$1" "$(( $(date +%s) - started ))"; }
fail=0
failed_steps=()

step "lint"
npx eslint . || failed_steps+=(lint)
step "typecheck"
# One `tsc -b` over the four projects tsconfig.json references (node, renderer, electron, e2e): one process
# shares the parsed libraries between them, and an unchanged project is skipped on the next run
# (its .tsbuildinfo is kept in node_modules/.cache/tsc).
npm run -s typecheck || failed_steps+=(typecheck)
step "build"
node scripts/build.mjs || failed_steps+=(build)
export STRATA_BUILT=1

step "tests"
# Two runs in one set of services: the unit and integration tests on two workers (most wait on real
# servers, folders and timers, so two share the 2 cores well: ~130 s instead of ~225 s), then the e2e
# tests one file at a time (each drives Chromium and a host; side by side they would time each other out).
# --passWithNoTests: a filter given to `npm test --` may match files of only one of the two runs.
rm -f test-results/unit.json test-results/e2e.json
scripts/with-services.sh bash -c '
  npx vitest run --project node --project renderer --maxWorkers=2 --passWithNoTests --reporter=default --reporter=json --outputFile.json=test-results/unit.json "$@"; unit=$?
  npx vitest run --project e2e --passWithNoTests --reporter=default --reporter=json --outputFile.json=test-results/e2e.json "$@"; e2e=$?
  exit $(( unit || e2e ))' tests "$@"
vitest_status=$?
[ $vitest_status -ne 0 ] && fail=1

printf '\nnpm test took %ss\n' "$(( $(date +%s) - started ))"
# The last line counts a failed lint, typecheck or build step too, so it never reads "0 failed" then.
node scripts/summarize-results.mjs test-results/unit.json test-results/e2e.json --failed-steps "$(IFS=,; echo "${failed_steps[*]}")" || fail=1
exit $fail
