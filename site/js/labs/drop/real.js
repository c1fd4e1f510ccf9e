// The drop lab on the page's real PostgreSQL 18 (js/realpg.js): DROP TABLE and TRUNCATE of a
// table whose pages are in shared buffers, for the real panel's side-by-side figures (REAL,
// beside the model's job in sim/labs/drop/real.go), a step of the tour and an exercise.

import { count } from '../../format.js';

// tableSQL makes drop_cmp afresh, 20,000 rows of which every page stays in shared buffers,
// and ends with its relfilenode.
const tableSQL = `CREATE EXTENSION IF NOT EXISTS pg_buffercache;
DROP TABLE IF EXISTS drop_cmp;
CREATE TABLE drop_cmp (id int, pad text) WITH (autovacuum_enabled = off);
INSERT INTO drop_cmp SELECT g, repeat('x', 200) FROM generate_series(1, 20000) g;
SELECT pg_relation_filenode('drop_cmp');`;

// leftSQL counts the buffers of relfilenode node in this database.
const leftSQL = (node) => `SELECT count(*) FROM pg_buffercache
WHERE relfilenode = ${Number(node)} AND reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database());`;

// dropSQL makes drop_cmp, runs op on it (DROP TABLE or TRUNCATE) and ends with how many buffers
// of its old relfilenode are left, remembered in a temporary table (local buffers, not
// shared ones).
export const dropSQL = (op) => `${tableSQL}
CREATE TEMP TABLE IF NOT EXISTS drop_cmp_node (node oid);
TRUNCATE drop_cmp_node;
INSERT INTO drop_cmp_node SELECT pg_relation_filenode('drop_cmp');
SELECT count(*) AS cached FROM pg_buffercache WHERE relfilenode = (SELECT node FROM drop_cmp_node);
${op === 'truncate' ? 'TRUNCATE drop_cmp;' : 'DROP TABLE drop_cmp;'}
SELECT count(*) AS left_behind FROM pg_buffercache WHERE relfilenode = (SELECT node FROM drop_cmp_node);`;

// dropWhy says why none is left.
export const dropWhy = 'The commit unlinks the relation\'s files, and DropRelationsAllBuffers drops every buffer of them first: a primary knows no cached relation sizes, so it checks every descriptor of the pool.';

// REAL is DROP TABLE and TRUNCATE on PostgreSQL 18 beside the model of a primary.
export const REAL = {
  intro: 'DROP TABLE and TRUNCATE of a table whose pages are in shared buffers, on PostgreSQL 18 itself and in the drop lab\'s model of a primary at the same pool: the table\'s buffers left after each, and the time each took.',
  async run({ exec, value, model, say }) {
    const nbuffers = await value("SELECT setting::int FROM pg_settings WHERE name = 'shared_buffers';");
    say('DROP TABLE…');
    const dropNode = await value(tableSQL);
    const pages = await value(`SELECT count(*) FROM pg_buffercache WHERE relfilenode = ${Number(dropNode)} AND relforknumber = 0;`);
    const drop = await exec('DROP TABLE drop_cmp;');
    const dropLeft = await value(leftSQL(dropNode));
    say('TRUNCATE…');
    const truncNode = await value(tableSQL);
    const trunc = await exec('TRUNCATE drop_cmp;');
    const truncLeft = await value(leftSQL(truncNode));
    say('The same in the model…');
    const m = await model({ nbuffers, pages });
    const time = (what, ms, op) => ({
      what, real: ms, model: op.seconds * 1000, unit: 'ms', exact: false,
      note: `PostgreSQL 18's figure is the whole statement in WebAssembly on this device: parse, catalog changes, commit, unlinking the files and the buffer scan. The model's is the buffer work alone on a native server: a primary knows no cached relation sizes, so DropRelationsAllBuffers checks all ${count(op.checked)} descriptors.`,
    });
    return [
      { what: 'Buffers of the table left after DROP TABLE', real: dropLeft, model: m.drop.left, unit: 'buffers', exact: true, note: dropWhy },
      { what: 'Buffers of the old relfilenode left after TRUNCATE', real: truncLeft, model: m.truncate.left, unit: 'buffers', exact: true, note: dropWhy },
      time('Time of DROP TABLE', drop.ms, m.drop),
      time('Time of TRUNCATE', trunc.ms, m.truncate),
    ];
  },
};
