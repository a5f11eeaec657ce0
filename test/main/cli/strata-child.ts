// The `strata` process from source: what bin/strata.mjs runs from the bundle (`main` of main/cli/index.ts),
// so tests can pipe its output and signal it without a build.
import { main } from '../../../main/cli/index.js';

await main(process.argv.slice(2));
