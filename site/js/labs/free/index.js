// Free play's page: its introduction and the notes under its controls. Everything else
// (form, counters, legend, playback) is the page's own, built from the lab's tables.

import { count, rungAbove } from '../../format.js';
import { tour, exercises } from './guide.js';
import { REAL } from './real.js';

// EXACT_LIMIT is the largest pool drawn one cell per buffer (wasm/grid: MaxFlashBuffers).
const EXACT_LIMIT = 131072;

// SQL is what a reader runs on a server of their own to see what this lab shows: the pool
// buffer by buffer and by relation (pg_buffercache; the join is the one the fidelity
// harness counts a relation's buffers with, fidelity/ring.go), and its I/O (pg_stat_io).
const SQL = {
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
      note: 'The counters of this page, as pg_stat_io counts them since its last reset; "pg_stat_io" in the export card has the simulated rows.',
      code: `SELECT backend_type, context, reads, hits, evictions, writes
FROM pg_stat_io
WHERE object = 'relation'
  AND coalesce(reads, 0) + coalesce(hits, 0) + coalesce(writes, 0) > 0
ORDER BY backend_type, context;`,
    },
  ],
};


export default {
  tour,
  exercises,
  sql: SQL,
  real: REAL,
  intro: '<p>PostgreSQL\'s shared buffer pool, live: pages arrive, the clock sweep picks victims, dirty pages wait for the write-ahead log.</p>',
  settingsTitle: 'Pool and workload',

  // speed is free play's speed when the address names none: fast enough that the pool
  // fills and the clock sweep starts evicting within a few seconds (a Zipfian load misses
  // about once in ten steps as the pool fills, so about ten steps a buffer), on the slider's
  // 1, 2, 5 ladder; ten times slower for reduced motion.
  speed(stats, reduced) {
    const want = (10 * stats.nbuffers) / 4; // about four seconds to the first eviction
    const top = Math.min(1e6, rungAbove(want));
    return reduced ? top / 10 : top;
  },

  notes(params, stats) {
    const nb = stats.nbuffers;
    if (nb <= EXACT_LIMIT) return {};
    const bytes = nb * 96;
    const mem = bytes > 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : `${Math.round(bytes / 1e6)} MB`;
    return {
      shared_buffers: `${count(nb)} buffers are drawn several to a pixel; zoom in to see single buffers. The simulation needs about ${mem} of memory in your browser, which a phone may not have.`,
      'shared_buffers:warn': nb > 4 * 1024 * 1024,
    };
  },

  hidden: (params) => (params.distribution === 'zipfian' ? [] : ['zipf_s']),
};
