import { readdir } from 'node:fs/promises';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';
import { claudeCode, NEWEST_ORACLE_VERSION } from './claude-code-oracle.js';

const saved = { ...process.env };
afterEach(() => {
  for (const key of ['STRATA_CONFORMANCE_CACHE', 'npm_config_registry', 'npm_config_fetch_retry_mintimeout', 'npm_config_fetch_retry_maxtimeout', 'STRATA_CONFORMANCE']) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the Claude Code oracle install', () => {
  it('skips the newest version with the registry’s reason when the registry cannot be reached, leaving no lock behind', { timeout: 120_000 }, async () => {
    const cache = await tempDir('strata-oracle-cache-');
    process.env.STRATA_CONFORMANCE_CACHE = cache;
    process.env.npm_config_registry = `http://127.0.0.1:${await closedPort()}/`;
    // npm's one retry waits 10 s by default; the refusal is the same after 0.1 s.
    process.env.npm_config_fetch_retry_mintimeout = '100';
    process.env.npm_config_fetch_retry_maxtimeout = '200';
    const oracle = await claudeCode(NEWEST_ORACLE_VERSION);
    expect(oracle).toEqual({ skip: expect.stringMatching(new RegExp(`^the npm registry could not provide @anthropic-ai/claude-code-${process.platform}-${process.arch}@${NEWEST_ORACLE_VERSION} \\(.+\\)$`)) });
    // The next run tries again: a failed install leaves neither the executable nor the lock.
    expect((await readdir(cache)).filter((f) => f.endsWith('.installing'))).toEqual([]);
  });

  it('is skipped on purpose with STRATA_CONFORMANCE=off', async () => {
    process.env.STRATA_CONFORMANCE = 'off';
    expect(await claudeCode(NEWEST_ORACLE_VERSION)).toEqual({ skip: 'STRATA_CONFORMANCE=off' });
  });
});
