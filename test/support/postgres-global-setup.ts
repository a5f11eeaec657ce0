import type { TestProject } from 'vitest/node';

/**
 * The PostgreSQL used by the server tests. `scripts/test.sh` starts a private cluster and exports
 * STRATA_TEST_PG_URL; this passes it on (tests that need it read `inject('pgUrl')`).
 */
export default function setup(project: TestProject): void {
  project.provide('pgUrl', process.env.STRATA_TEST_PG_URL ?? '');
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
  }
}
