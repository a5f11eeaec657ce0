#!/usr/bin/env bash
# `npm test`: lint, typecheck, build, then every vitest project (unit, integration, e2e) with the
# services they need (scripts/with-services.sh), ending with one `N passed, N failed` line.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results

step() { printf '\n== %s\n' "$1"; }
fail=0

step "lint"
npx eslint . || fail=1
step "typecheck"
npm run -s typecheck || fail=1
step "build"
node scripts/build.mjs || fail=1
export STRATA_BUILT=1

step "tests"
scripts/with-services.sh npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json "$@"
vitest_status=$?
[ $vitest_status -ne 0 ] && fail=1

node scripts/summarize-results.mjs test-results/vitest.json || fail=1
exit $fail
