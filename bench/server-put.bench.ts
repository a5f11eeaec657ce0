import { line, median, percentile, type Bench, type BenchLine } from './harness.js';
import { onBothDatabases, request, seededServer, type BenchDb } from './server-bench-support.js';

const name = 'server-put';
const puts = Number(process.env.STRATA_BENCH_PUTS ?? 100);
const entries = 1000;

/** Latency of one-key conditional PUTs, one after another, into a repository holding 1,000 entries. */
async function putLatencies(db: BenchDb): Promise<number[]> {
  const seeded = await seededServer(db, entries);
  let etag = seeded.etag;
  const times: number[] = [];
  try {
    for (let i = 0; i < puts; i++) {
      const body = JSON.stringify({ entries: { [`notes/n${i % entries}.md`]: `# Note ${i}\nedited ${i}\n` } });
      const started = performance.now();
      const res = await request(seeded.server.port, 'PUT', seeded.token, body, { 'if-match': etag });
      times.push(performance.now() - started);
      if (res.status !== 200) throw new Error(`PUT answered ${res.status}`);
      etag = res.etag!;
    }
  } finally {
    await seeded.server.close();
  }
  return times;
}

/** Baseline: the same single-row upsert issued directly through the driver, no HTTP, no checks. */
async function rawUpsertLatencies(db: BenchDb): Promise<number[]> {
  const times: number[] = [];
  const sql = 'INSERT INTO bench_kv (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v';
  if (db.kind === 'sqlite') {
    const { default: Database } = await import('better-sqlite3');
    const raw = new Database(db.url.slice('sqlite:'.length));
    raw.pragma('journal_mode = WAL');
    raw.exec('CREATE TABLE IF NOT EXISTS bench_kv (k TEXT PRIMARY KEY, v TEXT)');
    const statement = raw.prepare(sql);
    for (let i = 0; i < puts; i++) {
      const started = performance.now();
      statement.run(`k${i % entries}`, `v${i}`);
      times.push(performance.now() - started);
    }
    raw.close();
  } else {
    const pg = (await import('pg')).default;
    const raw = new pg.Client({ connectionString: db.url });
    await raw.connect();
    await raw.query('CREATE TABLE IF NOT EXISTS bench_kv (k TEXT PRIMARY KEY, v TEXT)');
    const numbered = sql.replace('?', '$1').replace('?', '$2');
    for (let i = 0; i < puts; i++) {
      const started = performance.now();
      await raw.query(numbered, [`k${i % entries}`, `v${i}`]);
      times.push(performance.now() - started);
    }
    await raw.end();
  }
  return times;
}

async function measure(db: BenchDb): Promise<BenchLine[]> {
  const server = await putLatencies(db);
  const raw = await rawUpsertLatencies(db);
  return [
    line(name, `${db.kind}-put-p50`, 'ms', median(server), median(raw), { entries, puts }),
    line(name, `${db.kind}-put-p95`, 'ms', percentile(server, 95), percentile(raw, 95), { entries, puts }),
  ];
}

const bench: Bench = {
  name,
  run: () => onBothDatabases(name, measure),
};
export default bench;
