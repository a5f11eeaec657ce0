import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTeamServer, type TeamServer } from '../../../../server/index.js';
import { MemoryCredentialStore } from '../../../../main/core/auth/credential-store.js';
import { systemClock } from '../../../../main/core/ports.js';
import { issuerOf, metadataUrlOf } from '../../../../main/core/team-sync/auth-discovery.js';
import { TeamAuth } from '../../../../main/core/team-sync/oauth-client.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';

/** RFC 8414 §3 (path-aware well-known URL) and §3.3 (issuer check) against the real team server. */
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function teamServer(publicUrl?: string): Promise<TeamServer> {
  const dir = await tempDir('strata-discovery-');
  const logs = testLogger();
  const server = await startTeamServer({ db: `sqlite:${path.join(dir, 'team.db')}`, port: 0, publicUrl, logger: logs.logger, limits: { rateLimitPerMinute: 0 } });
  closers.push(async () => {
    await server.close();
    logs.assertNoErrors();
  });
  return server;
}

/**
 * A reverse proxy that mounts a server under `/team`, as an operator would: `/team/*` goes to the
 * server's `/*`, and RFC 8414's `/.well-known/oauth-authorization-server/team` to its metadata.
 * Everything else, the origin's own well-known URL included, is 404.
 */
async function mountUnderTeam(): Promise<{ url: string; target(port: number): void }> {
  let upstream = 0;
  const proxy = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const mapped = url === '/.well-known/oauth-authorization-server/team' ? '/.well-known/oauth-authorization-server' : url.startsWith('/team/') ? url.slice('/team'.length) : null;
    if (mapped === null) {
      res.writeHead(404).end();
      return;
    }
    const forward = http.request({ host: '127.0.0.1', port: upstream, path: mapped, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => proxy.close(() => resolve())));
  return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, target: (port) => (upstream = port) };
}

function signInFor(serverUrl: string, opened: string[] = []): TeamAuth {
  return new TeamAuth({ serverUrl, credentials: new MemoryCredentialStore(), clock: systemClock, logger: testLogger().logger, openBrowser: (url) => void opened.push(url) });
}

describe('OAuth discovery (RFC 8414)', () => {
  it('derives the issuer from the team server URL and puts the well-known suffix before its path', () => {
    expect(issuerOf('https://strata.example.com/')).toBe('https://strata.example.com');
    expect(issuerOf('https://example.com:8443/tools/team/')).toBe('https://example.com:8443/tools/team');
    expect(metadataUrlOf('https://strata.example.com')).toBe('https://strata.example.com/.well-known/oauth-authorization-server');
    expect(metadataUrlOf('https://example.com:8443/tools/team')).toBe('https://example.com:8443/.well-known/oauth-authorization-server/tools/team');
    expect(() => issuerOf('https://example.com/team?x=1')).toThrow(expect.objectContaining({ code: 'invalid_request', message: expect.stringMatching(/cannot carry a query/) }));
  });

  it("accepts the real server's metadata when its issuer is the team server URL", async () => {
    const server = await teamServer();
    const meta = await signInFor(`${server.url}/`).discover();
    expect(meta).toMatchObject({ issuer: server.url, authorization_endpoint: `${server.url}/oauth/authorize` });
  });

  it('finds the metadata of a server mounted under a path at the path-aware well-known URL', async () => {
    const proxy = await mountUnderTeam();
    const server = await teamServer(`${proxy.url}/team`);
    proxy.target(server.port);
    expect((await fetch(`${proxy.url}/.well-known/oauth-authorization-server`)).status).toBe(404);
    const meta = await signInFor(`${proxy.url}/team`).discover();
    expect(meta).toMatchObject({ issuer: `${proxy.url}/team`, token_endpoint: `${proxy.url}/team/oauth/token` });
  });

  it('refuses metadata naming another issuer, before any browser opens', async () => {
    const server = await teamServer('https://strata.example.com');
    const opened: string[] = [];
    const auth = signInFor(server.url, opened);
    await expect(auth.discover()).rejects.toMatchObject({
      code: 'permission_denied',
      message: `refusing to sign in: the OAuth metadata at ${server.url}/.well-known/oauth-authorization-server names the issuer "https://strata.example.com", not "${server.url}" (the team server URL); check the team server URL, or the server's public URL`,
    });
    await expect(auth.signIn({ timeoutMs: 1_000 })).rejects.toMatchObject({ code: 'permission_denied' });
    expect(opened).toEqual([]);
  });
});
