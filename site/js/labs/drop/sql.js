// SQL is what a reader runs on a real server to see this lab's effect: the statements the
// fidelity harness runs and times (fidelity/drop.go, fidelity/replay.go), in psql. Each block
// runs as written, in order, in one database, on the versions it names (since, until: every
// version the harness has when absent): fidelity's TestRealSnippets runs them so.
export const SQL = {
  intro: 'make fidelity runs these on real servers of PostgreSQL 13 to 18 and times them; docs/fidelity.md sets its figures beside the simulation\'s. Run them in psql.',
  blocks: [
    {
      title: '200 tables of one block each',
      note: 'autovacuum off, so nothing else touches them; the harness also runs with max_parallel_workers_per_gather = 0.',
      code: `DO $$ BEGIN FOR i IN 0..199 LOOP EXECUTE format('CREATE TABLE drop_t%s (i int) WITH (autovacuum_enabled = off)', i); EXECUTE format('INSERT INTO drop_t%s VALUES (1)', i); END LOOP; END $$;
CHECKPOINT;`,
    },
    {
      title: 'On a primary: every DROP TABLE scans all of shared_buffers',
      note: 'Each drop is its own transaction. Restart with a larger shared_buffers and each drop takes longer, though every table has one block: a primary does not know the relation\'s size for sure, so it checks every buffer descriptor. synchronous_commit = off keeps the commit\'s WAL flush out of the time.',
      code: `SET synchronous_commit = off;
\\timing on
SELECT format('DROP TABLE drop_t%s', i) FROM generate_series(0, 199) i \\gexec`,
      real: { reason: 'it is psql\'s: \\timing and \\gexec are psql commands, and each drop must be its own transaction, timed by the client.' },
    },
    {
      title: 'In recovery: TRUNCATE replayed by a lookup per block',
      note: 'The tables made again as above, TRUNCATE each in its own transaction, then crash the server and time the replay from the log\'s "redo starts" to "redo done" (log_min_messages = info; the harness runs with fsync = off, so that syncing does not hide the drops). From PostgreSQL 14 the startup process looks small relations\' blocks up instead of scanning the pool, so the replay no longer grows with shared_buffers. A standby replaying the primary\'s WAL does the same.',
      code: `DO $$ BEGIN FOR i IN 0..199 LOOP EXECUTE format('DROP TABLE IF EXISTS drop_t%s', i); EXECUTE format('CREATE TABLE drop_t%s (i int) WITH (autovacuum_enabled = off)', i); EXECUTE format('INSERT INTO drop_t%s VALUES (1)', i); END LOOP; END $$;
CHECKPOINT;
SELECT format('TRUNCATE drop_t%s', i) FROM generate_series(0, 199) i \\gexec
-- then, in a shell:
--   pg_ctl -D "$PGDATA" -m immediate stop
--   pg_ctl -D "$PGDATA" -l "$PGDATA/pg.log" -w start
--   grep -E 'redo (starts|done)' "$PGDATA/pg.log"`,
      real: { reason: 'the replay needs a server to crash and start again, and its log.' },
    },
    {
      title: 'The pages a drop must find',
      note: 'Before the drop: how many buffers hold the relation, as the grid colours them (the query the harness counts buffers with).',
      code: `CREATE EXTENSION IF NOT EXISTS pg_buffercache;
SELECT count(*) FILTER (WHERE b.relforknumber = 0) AS main,
       count(*) FILTER (WHERE b.relforknumber <> 0) AS other_forks
FROM pg_buffercache b
WHERE b.relfilenode = pg_relation_filenode('drop_t0'::regclass)
  AND b.reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database());`,
    },
  ],
};
