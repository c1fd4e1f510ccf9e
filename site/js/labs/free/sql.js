// SQL is what a reader runs on a server of their own to see what this lab shows: the pool
// buffer by buffer and by relation (pg_buffercache; the join is the one the fidelity
// harness counts a relation's buffers with, fidelity/ring.go), and its I/O (pg_stat_io). Each
// block runs as written, in order, in one database, on the versions it names (since, until:
// every version the harness has when absent): fidelity's TestRealSnippets runs them so.
export const SQL = {
  intro: 'On a server of your own, with the pg_buffercache extension (PostgreSQL 16 or later for pg_stat_io), these show what the grid and the counters show here.',
  blocks: [
    {
      title: 'The pool, buffer by buffer',
      note: 'The same columns as "pg_buffercache as CSV" in the export card.',
      code: `CREATE EXTENSION IF NOT EXISTS pg_buffercache;
SELECT bufferid, relfilenode, relforknumber, relblocknumber,
       isdirty, usagecount, pinning_backends
FROM pg_buffercache
ORDER BY bufferid
LIMIT 100;`,
    },
    {
      title: 'Which relations fill the pool',
      note: 'The legend\'s colours: the buffers each relation of this database holds, how many are dirty, and their usage counts.',
      code: `SELECT c.relname, count(*) AS buffers,
       count(*) FILTER (WHERE b.isdirty) AS dirty,
       round(avg(b.usagecount), 2) AS avg_usagecount
FROM pg_buffercache b
JOIN pg_class c ON b.relfilenode = pg_relation_filenode(c.oid)
WHERE b.reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
GROUP BY c.relname
ORDER BY buffers DESC
LIMIT 10;`,
    },
    {
      title: 'Usage counts: what the clock sweep sees',
      note: 'The sweep takes a buffer at usage count 0 and lowers the others as it passes; a busy pool has few buffers at 0.',
      code: `SELECT usagecount, count(*) AS buffers,
       count(*) FILTER (WHERE isdirty) AS dirty
FROM pg_buffercache
GROUP BY usagecount
ORDER BY usagecount;`,
    },
    {
      title: 'Hits, reads, evictions and who wrote',
      since: 16,
      note: 'The counters of this page, as pg_stat_io counts them since its last reset; "pg_stat_io" in the export card has the simulated rows.',
      code: `SELECT backend_type, context, reads, hits, evictions, writes
FROM pg_stat_io
WHERE object = 'relation'
  AND coalesce(reads, 0) + coalesce(hits, 0) + coalesce(writes, 0) > 0
ORDER BY backend_type, context;`,
    },
  ],
};
