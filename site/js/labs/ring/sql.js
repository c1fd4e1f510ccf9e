// SQL is what a reader runs on a real server to see this lab's effect: the statements the
// fidelity harness runs (fidelity/ring.go, fidelity/walflush.go), in psql. Each block runs as
// written, in order, in one database, on the versions it names (since, until: every version
// the harness has when absent): fidelity's TestRealSnippets runs them so.
export const SQL = {
  intro: 'make fidelity runs these on real servers of PostgreSQL 13 to 18 (shared_buffers 128MB, autovacuum off); docs/fidelity.md sets its counts beside the simulation\'s. pg_stat_io needs PostgreSQL 16, vacuum_buffer_usage_limit 16.',
  blocks: [
    {
      title: 'A table larger than any ring',
      note: 'An 80MB table; each run deletes a new slice of its rows, so VACUUM dirties every page but never truncates. Restart the server after the CHECKPOINT to start from an empty pool.',
      code: `CREATE EXTENSION pg_buffercache;
CREATE TABLE ring_t (id int, filler text) WITH (autovacuum_enabled = off);
INSERT INTO ring_t SELECT g, repeat('x', 100) FROM generate_series(1, 600000) g;
DELETE FROM ring_t WHERE id % 5 = 0;
CHECKPOINT;`,
      real: {
        code: `CREATE EXTENSION IF NOT EXISTS pg_buffercache;
CREATE TABLE ring_t (id int, filler text) WITH (autovacuum_enabled = off);
INSERT INTO ring_t SELECT g, repeat('x', 100) FROM generate_series(1, 600000) g;
DELETE FROM ring_t WHERE id % 5 = 0;
CHECKPOINT;
SELECT buffers_evicted FROM pg_buffercache_evict_relation('ring_t');`,
        note: 'The page\'s PostgreSQL cannot restart, so the panel empties the pool of the table with PostgreSQL 18\'s pg_buffercache_evict_relation instead. Filling the table takes a while in WebAssembly.',
      },
    },
    {
      title: 'VACUUM through a ring of your choice',
      since: 16,
      note: 'Read the counters below before and after: they count since the server started.',
      code: `SET vacuum_buffer_usage_limit = '256kB';
VACUUM ring_t;`,
      real: {
        code: `CREATE SEQUENCE IF NOT EXISTS ring_slice;
WITH s AS (SELECT nextval('ring_slice') % 49 AS k) DELETE FROM ring_t USING s WHERE ring_t.id % 49 = s.k;
CHECKPOINT;
SELECT buffers_evicted FROM pg_buffercache_evict_relation('ring_t');
SET vacuum_buffer_usage_limit = '256kB';
VACUUM ring_t;`,
        note: 'In the panel each run first deletes a new slice of rows (so VACUUM has work on every page) and empties the pool of the table, as a restart would; change the limit and run it again.',
      },
    },
    {
      title: 'What the ring did, in pg_stat_io',
      since: 16,
      note: 'Reuses are the ring\'s own buffers taken again, writes the dirty ones VACUUM had to write itself (each after a WAL flush up to the page\'s LSN).',
      code: `SELECT coalesce(sum(reuses), 0)::bigint, coalesce(sum(writes), 0)::bigint, coalesce(sum(reads), 0)::bigint
FROM pg_stat_io
WHERE backend_type = 'client backend' AND context = 'vacuum' AND object = 'relation';`,
    },
    {
      title: 'The WAL flushes',
      since: 18,
      note: 'From PostgreSQL 18 WAL I/O is in pg_stat_io: all syncs, then the backends\' own. The page\'s PostgreSQL has no WAL writer, so there every flush is the backend\'s own.',
      code: `SELECT coalesce(sum(fsyncs), 0)::bigint,
       coalesce(sum(fsyncs) FILTER (WHERE backend_type = 'client backend'), 0)::bigint
FROM pg_stat_io WHERE object = 'wal';`,
    },
    {
      title: 'The WAL flushes',
      since: 14,
      until: 17,
      note: 'On PostgreSQL 14 to 17 the WAL syncs of every process are in pg_stat_wal.',
      code: `SELECT wal_sync FROM pg_stat_wal;`,
      real: { reason: 'it is PostgreSQL 14 to 17\'s; the page\'s is 18.' },
    },
    {
      title: 'What VACUUM left in shared buffers',
      note: 'About the ring\'s size: VACUUM keeps its pages to its ring and leaves the foreground\'s alone. A sequential scan (SELECT count(*) FROM ring_t) does the same through its bulkread ring.',
      code: `SELECT count(*) FILTER (WHERE b.relforknumber = 0),
       count(*) FILTER (WHERE b.relforknumber <> 0)
FROM pg_buffercache b
WHERE b.relfilenode = pg_relation_filenode('ring_t'::regclass)
  AND b.reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database());`,
    },
  ],
};
