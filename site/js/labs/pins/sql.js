import { leaf } from './real.js';

// SQL is what a reader runs on a real server to see this lab's effect: the statements the
// fidelity harness runs (fidelity/lpdead.go), in psql, and a pgbench load like the lab's.
// Each block runs as written, in order, in one database, on the versions it names (since,
// until: every version the harness has when absent), a "-- session N" line moving to another
// session: fidelity's TestRealSnippets runs them so, all but what needs more than SQL (needs).
export const SQL = {
  intro: 'make fidelity runs the first three on real servers of PostgreSQL 13 to 18 (pageinspect, autovacuum off); docs/fidelity.md sets its counts beside the simulation\'s. The last is a load like the lab\'s, not run by the harness.',
  blocks: [
    {
      title: 'Hints set by an index scan',
      note: 'One leaf page (block 1 of the index) whose 100 middle entries point at deleted rows. After the index scan, bt_page_items shows them marked dead (LP_DEAD).',
      code: `CREATE EXTENSION pageinspect;
${leaf('lp_plain')}
SELECT filler FROM lp_plain WHERE id BETWEEN 1 AND 200 ORDER BY id;
SELECT count(*) FROM bt_page_items('lp_plain_pkey', 1) WHERE dead;`,
    },
    {
      title: 'A hint lost: the page changed under the scan',
      note: 'lp_cursor_insert is made as lp_plain above (insert, VACUUM ANALYZE, delete). A cursor reads the leaf, a second session inserts into it (its LSN moves), the cursor goes on: since 9.5 the scan had dropped its pin, so it may not mark the entries and none are dead.',
      code: `-- session 1
${leaf('lp_cursor_insert')}
BEGIN;
DECLARE c CURSOR FOR SELECT filler FROM lp_cursor_insert WHERE id BETWEEN 1 AND 200 ORDER BY id;
FETCH 5 FROM c;
-- session 2
INSERT INTO lp_cursor_insert VALUES (201, 'new');
-- session 1
FETCH ALL FROM c;
CLOSE c;
COMMIT;
SELECT count(*) FROM bt_page_items('lp_cursor_insert_pkey', 1) WHERE dead;`,
      real: {
        code: `CREATE EXTENSION IF NOT EXISTS pageinspect;
${leaf('lp_cursor_insert')}
BEGIN;
DECLARE c CURSOR FOR SELECT filler FROM lp_cursor_insert WHERE id BETWEEN 1 AND 200 ORDER BY id;
FETCH 5 FROM c;
INSERT INTO lp_cursor_insert VALUES (201, 'new');
FETCH ALL FROM c;
CLOSE c;
COMMIT;
SELECT count(*) FROM bt_page_items('lp_cursor_insert_pkey', 1) WHERE dead;`,
        note: 'The page\'s PostgreSQL has one session, so the panel makes the table and the insert comes from the same session, between the fetches: the leaf\'s LSN moves all the same.',
      },
    },
    {
      title: 'VACUUM waiting for a pin',
      note: 'pin_ios is made as lp_plain above. A cursor that keeps its pin (an index-only scan, or any scan before 9.5) blocks VACUUM\'s cleanup lock on the leaf; a third session sees it wait. VACUUM goes on once the first session ends its transaction.',
      code: `-- session 1
${leaf('pin_ios')}
BEGIN;
DECLARE c CURSOR FOR SELECT id FROM pin_ios WHERE id >= 1 ORDER BY id;
FETCH 1 FROM c;
-- session 2
VACUUM pin_ios;
-- session 3
SELECT pid, wait_event_type, wait_event, query
FROM pg_stat_activity WHERE wait_event = 'BufferPin';
-- session 1
COMMIT;`,
      real: { reason: 'it needs three sessions at once.' },
    },
    {
      title: 'A load like the lab\'s: pgbench with Zipfian keys',
      needs: 'pgbench, with 40 clients',
      note: 'Half SELECTs, half UPDATEs by key, keys skewed by random_zipfian; -P 5 prints the TPS of each 5-second slice, as the chart draws them. Save the two scripts, then run pgbench from a shell.',
      code: `-- select.sql
\\set aid random_zipfian(1, 100000 * :scale, 1.1)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;

-- update.sql
\\set aid random_zipfian(1, 100000 * :scale, 1.1)
UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :aid;

-- shell:
--   pgbench -i -s 10 bench
--   pgbench -n -c 40 -j 4 -T 600 -P 5 -f select.sql@1 -f update.sql@1 bench`,
      real: { reason: 'it is pgbench\'s, with 40 clients.' },
    },
  ],
};
