import { execFileSync } from 'node:child_process';

/** e2e drives the built app: build it unless `npm test` already did (it sets STRATA_BUILT). */
export default function setup(): void {
  if (process.env.STRATA_BUILT === '1') return;
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}
