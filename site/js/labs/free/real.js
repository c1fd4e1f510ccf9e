// Free play on the page's real PostgreSQL 18 (js/realpg.js): the usage count's rule, for the
// real panel's side-by-side figures (REAL, beside the model's job in sim/labs/free/real.go),
// a step of the tour and an exercise.

// usageSQL reads a one-page table n times from a pool that does not hold it (each read a
// sequential scan, which pins the page once) and ends with the page's usage count.
export const usageSQL = (n) => `CREATE EXTENSION IF NOT EXISTS pg_buffercache;
DROP TABLE IF EXISTS usage_cmp;
CREATE TABLE usage_cmp (id int) WITH (autovacuum_enabled = off);
INSERT INTO usage_cmp VALUES (1);
CHECKPOINT;
SELECT buffers_evicted FROM pg_buffercache_evict_relation('usage_cmp');
${'SELECT count(*) FROM usage_cmp;\n'.repeat(n)}SELECT usagecount FROM pg_buffercache
WHERE relfilenode = pg_relation_filenode('usage_cmp') AND relforknumber = 0
  AND reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database());`;

// usageWhy says where a usage count comes from.
export const usageWhy = 'A buffer read in starts at usage count 1 (BufferAlloc) and each later pin adds one (PinBuffer), up to BM_MAX_USAGE_COUNT, 5; the clock sweep takes one off each time it passes.';

const READS = [1, 3, 7];

// REAL is the usage count after 1, 3 and 7 reads, on PostgreSQL 18 and in the model.
export const REAL = {
  intro: `A page's usage count, which every pin raises up to 5 and the clock sweep lowers: a one-page table read ${READS.join(', ')} times from a pool that did not hold it, on PostgreSQL 18 itself and in the model. Each read is a sequential scan, which pins the page once.`,
  async run({ value, model, say }) {
    say('The same in the model…');
    const m = await model({ reads: READS });
    const rows = [];
    for (const [i, n] of READS.entries()) {
      say(`${n} read${n === 1 ? '' : 's'}…`);
      const real = await value(usageSQL(n));
      rows.push({ what: `Usage count after ${n} read${n === 1 ? '' : 's'}`, real, model: m.usage[i], exact: true, note: usageWhy });
    }
    return rows;
  },
};
