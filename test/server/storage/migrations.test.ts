import { expect, it } from 'vitest';
import { migrate, schemaVersion } from '../../../server/storage/migrations.js';
import { openDatabase, openUnmigrated as openRaw } from '../../../server/storage/open-db.js';
import { describeOnBackends } from '../helpers/backends.js';
import { client, json, startFixture } from '../helpers/server-fixture.js';

describeOnBackends('schema migrations', (backend) => {
  it('upgrades a version-1 database on start, keeping its entries byte for byte', async () => {
    const raw = await openRaw(backend.url());
    await migrate(raw, 1);
    await raw.run("INSERT INTO users (id, username, password_hash, created_at) VALUES ('usr_old', 'old', NULL, 0)");
    await raw.run("INSERT INTO memberships (user_id, repo, created_at) VALUES ('usr_old', 'acme/old', 0)");
    await raw.run("INSERT INTO team_repos (repo, version, checksum, last_modified, entry_count) VALUES ('acme/old', 1, 'sha256:x', 0, 1)");
    await raw.run("INSERT INTO team_entries (repo, key, content, checksum, deleted_at) VALUES ('acme/old', 'a.md', ?, 'sha256:y', NULL)", ['Déjà vu ✓']);
    await raw.close();

    const f = await startFixture(backend.url());
    try {
      const { token } = await f.admin.createToken('old', null);
      const body = await json(await client(token).get(f.api('acme/old')));
      expect(body.content.entries).toEqual({ 'a.md': 'Déjà vu ✓' });
    } finally {
      await f.close();
    }
    const check = await openRaw(backend.url());
    try {
      const rows = await check.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(rows.map((r) => Number(r.version))).toEqual(Array.from({ length: schemaVersion }, (_, i) => i + 1));
    } finally {
      await check.close();
    }
  });

  it('migrates once when several servers open the database together, and refuses a newer schema', async () => {
    // better-sqlite3 blocks the thread while it waits for SQLite's lock, so SQLite connections in one
    // process open one after another; separate processes racing is the multi-instance suite's start.
    if (backend.name === 'postgres') {
      const dbs = await Promise.all(Array.from({ length: 3 }, () => openDatabase(backend.url())));
      await Promise.all(dbs.map((db) => db.close()));
    } else {
      for (let i = 0; i < 3; i++) await (await openDatabase(backend.url())).close();
    }
    const raw = await openRaw(backend.url());
    try {
      await raw.run('INSERT INTO schema_migrations (version, applied_at) VALUES (?, 0)', [schemaVersion + 1]);
    } finally {
      await raw.close();
    }
    await expect(openDatabase(backend.url())).rejects.toThrow(/newer than this server/);
  });
});
