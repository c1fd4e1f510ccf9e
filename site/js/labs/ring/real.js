// The ring lab on the page's real PostgreSQL 18 (js/realpg.js): VACUUM's ring and the
// sequential scan's, for the real panel's side-by-side figures (REAL, beside the model's job in
// sim/labs/ring/real.go), a step of the tour and an exercise.

// fillSQL makes ring_cmp afresh: 400,000 rows, about 6,900 pages, larger than every ring and
// than a quarter of the pool, so a sequential scan of it takes the bulk-read ring.
export const fillSQL = `CREATE EXTENSION IF NOT EXISTS pg_buffercache;
DROP TABLE IF EXISTS ring_cmp;
DROP SEQUENCE IF EXISTS ring_cmp_slice;
CREATE TABLE ring_cmp (id int, filler text) WITH (autovacuum_enabled = off);
INSERT INTO ring_cmp SELECT g, repeat('x', 100) FROM generate_series(1, 400000) g;
CREATE SEQUENCE ring_cmp_slice;
SELECT pg_relation_size('ring_cmp') / current_setting('block_size')::int AS pages;`;

// leftSQL counts ring_cmp's main-fork pages in shared buffers.
const leftSQL = `SELECT count(*) FROM pg_buffercache
WHERE relfilenode = pg_relation_filenode('ring_cmp') AND relforknumber = 0
  AND reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database());`;

// vacuumSQL deletes a new slice of ring_cmp's rows (so VACUUM has work on every page), empties
// the pool of the table as a restart would, runs VACUUM through a ring of kb kilobytes (0: none)
// and ends with the table's pages left in shared buffers.
export const vacuumSQL = (kb) => `WITH s AS (SELECT nextval('ring_cmp_slice') % 49 AS k) DELETE FROM ring_cmp USING s WHERE ring_cmp.id % 49 = s.k;
CHECKPOINT;
SELECT buffers_evicted FROM pg_buffercache_evict_relation('ring_cmp');
SET vacuum_buffer_usage_limit = '${Number(kb)}kB';
VACUUM ring_cmp;
RESET vacuum_buffer_usage_limit;
${leftSQL}`;

// vacuumWhy says what VACUUM leaves.
export const vacuumWhy = (kb) => (kb
  ? 'VACUUM reads through its ring (GetAccessStrategyWithSize: the limit in 8kB buffers, at most NBuffers/8) and reuses its own buffers, so the ring\'s pages are what it leaves.'
  : 'Without a ring VACUUM reads into shared buffers like any backend, and the whole table stays.');

// settingsSQL lists the settings PostgreSQL 18 sizes the sequential scan's ring from, which
// the model takes, as name=value pairs.
const SETTINGS = ['io_combine_limit', 'effective_io_concurrency', 'max_connections', 'autovacuum_worker_slots', 'max_worker_processes', 'max_wal_senders'];
const settingsSQL = `SELECT string_agg(name || '=' || setting, ',' ORDER BY name) FROM pg_settings WHERE name IN (${SETTINGS.map((n) => `'${n}'`).join(', ')});`;

const LIMITS = [
  { kb: 256, label: '256kB' }, { kb: 2048, label: '2MB (the default)' }, { kb: 16384, label: '16MB' }, { kb: 0, label: '0 (no ring)' },
];

// REAL is VACUUM under each limit and a sequential scan, on PostgreSQL 18 beside the model.
export const REAL = {
  intro: 'VACUUM of a cold table larger than every ring under each vacuum_buffer_usage_limit, and a sequential scan of it, on PostgreSQL 18 itself: the table\'s main-fork pages left in shared buffers, counted with pg_buffercache, beside the ring lab\'s model of the same pool. Filling the table takes a few seconds in WebAssembly.',
  async run({ value, model, say }) {
    say('Filling a table of 400,000 rows…');
    const pages = await value(fillSQL);
    const nbuffers = await value("SELECT setting::int FROM pg_settings WHERE name = 'shared_buffers';");
    const got = String(await value(settingsSQL));
    const io = Object.fromEntries(got.split(',').map((kv) => kv.split('=')).map(([k, v]) => [k, Number(v)]));
    say('The same in the model…');
    const m = await model({ nbuffers, pages, limits: LIMITS.map((l) => l.kb), ...io });
    const rows = [];
    for (const [i, l] of LIMITS.entries()) {
      say(`VACUUM with vacuum_buffer_usage_limit ${l.label}…`);
      const real = await value(vacuumSQL(l.kb));
      rows.push({ what: `Pages left after VACUUM, vacuum_buffer_usage_limit ${l.label}`, real, model: m.vacuum[i], unit: 'pages', exact: true, note: vacuumWhy(l.kb) });
    }
    say('A sequential scan…');
    const seq = await value(`CHECKPOINT;
SELECT buffers_evicted FROM pg_buffercache_evict_relation('ring_cmp');
SELECT count(*) FROM ring_cmp;
${leftSQL}`);
    const ring = Math.min(32 + io.io_combine_limit * io.effective_io_concurrency, Math.max(32, Math.floor(nbuffers / m.pinLimitProcs)));
    rows.push({
      what: 'Pages left after a sequential scan', real: seq, model: m.seqscan, unit: 'pages', exact: true,
      note: `A table above NBuffers/4 is scanned through the bulk-read ring, which PostgreSQL 18 sizes from its settings: 256kB + io_combine_limit × effective_io_concurrency pages, at most GetPinLimit() = NBuffers / (MaxBackends + NUM_AUXILIARY_PROCS). With this server's settings (${got.replace(/,/g, ', ')}) that is min(32 + ${io.io_combine_limit} × ${io.effective_io_concurrency}, ${nbuffers} / ${m.pinLimitProcs}) = ${ring} buffers.`,
    });
    return rows;
  },
};
