// Free play's page: its introduction and the notes under its controls. Everything else
// (form, counters, legend, playback) is the page's own, built from the lab's tables.

import { count, rungAbove } from '../../format.js';
import { tour, exercises } from './guide.js';
import { REAL } from './real.js';
import { SQL } from './sql.js';

// EXACT_LIMIT is the largest pool drawn one cell per buffer (wasm/grid: MaxFlashBuffers).
const EXACT_LIMIT = 131072;

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
