// The pins lab on the page's real PostgreSQL 18 (js/realpg.js): the LP_DEAD pair, for the real
// panel's side-by-side figures (REAL, beside the model's job in sim/labs/pins/real.go), a step of
// the tour and an exercise.

// leaf is the experiment's table: one leaf page whose 100 middle entries point at deleted
// rows, with plain index scans forced (make fidelity's experiment 6).
export const leaf = (name) => `CREATE TABLE ${name} (id int PRIMARY KEY, filler text) WITH (autovacuum_enabled = off);
INSERT INTO ${name} SELECT g, repeat('x', 400) FROM generate_series(1, 200) g;
VACUUM ANALYZE ${name};
DELETE FROM ${name} WHERE id BETWEEN 50 AND 149;
SET enable_seqscan = off;
SET enable_bitmapscan = off;`;

// deadSQL makes table name afresh, scans it as how says ('plain': an index scan; 'cursor': a
// cursor that fetches 5 rows, then the rest; 'insert': the same with an insert into the leaf
// between the fetches) and ends with the dead items on the leaf.
export const deadSQL = (name, how) => {
  const scan = `SELECT filler FROM ${name} WHERE id BETWEEN 1 AND 200 ORDER BY id`;
  const body = how === 'plain' ? `${scan};` : `BEGIN;
DECLARE c CURSOR FOR ${scan};
FETCH 5 FROM c;
${how === 'insert' ? `INSERT INTO ${name} VALUES (201, 'new');\n` : ''}FETCH ALL FROM c;
CLOSE c;
COMMIT;`;
  return `CREATE EXTENSION IF NOT EXISTS pageinspect;
DROP TABLE IF EXISTS ${name};
${leaf(name)}
${body}
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT count(*) FROM bt_page_items('${name}_pkey', 1) WHERE dead;`;
};

// deadWhy says when a scan may mark items dead.
export const deadWhy = 'A scan marks the items it found dead (_bt_killitems) when it leaves the leaf; one that dropped its pin may do so only if the leaf\'s LSN has not moved since it read it, and an insert moves it.';

// REAL is the LP_DEAD pair on PostgreSQL 18 beside the model.
export const REAL = {
  intro: 'The LP_DEAD pair on PostgreSQL 18 itself: the dead items on the B-tree leaf after a plain index scan over 100 deleted rows, and after a cursor that read them with an insert into the leaf between two of its fetches, beside the lab\'s B-tree model (experiment 6 of make fidelity).',
  async run({ value, model, say }) {
    say('A plain index scan over the deleted rows…');
    const plain = await value(deadSQL('lp_cmp_plain', 'plain'));
    say('A cursor, with an insert into the leaf between its fetches…');
    const cursor = await value(deadSQL('lp_cmp_cursor', 'insert'));
    say('The same in the model…');
    const m = await model({});
    return [
      { what: 'Dead items after a plain index scan', real: plain, model: m.plain, unit: 'items', exact: true, note: deadWhy },
      { what: 'Dead items after a cursor with an insert into the leaf', real: cursor, model: m.cursor, unit: 'items', exact: true, note: deadWhy },
    ];
  },
};
