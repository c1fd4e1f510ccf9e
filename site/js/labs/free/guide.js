// Free play's tour and exercise (js/guide.js): a pool of 16 buffers small enough to read
// cell by cell, filled, swept and dirtied.

import { count } from '../../format.js';
import { counters, stepUntil, yesNo } from '../../guide.js';
import { usageSQL, usageWhy } from './real.js';

// emptyBuffers counts the buffers of the pool that hold no page.
function emptyBuffers(bs) {
  const n = bs.stats().nbuffers;
  let empty = 0;
  for (let i = 0; i < n; i++) if (bs.buffer(i).empty) empty++;
  return empty;
}

export const tour = [
  {
    title: 'Sixteen buffers',
    text: 'This pool has 16 shared buffers (shared_buffers = 128kB), one cell each. Eight clients read and update pages of a table through it. Hover a cell to see its page, usage count and pins.',
    params: { shared_buffers: '128kB', clients: '8', updates: '20', distribution: 'zipfian', zipf_s: '1.1', seed: '1' },
    predict: { question: 'While the pool fills, will most accesses hit a page already in a buffer, or miss?', choices: [{ value: 'hit', label: 'hit' }, { value: 'miss', label: 'miss' }] },
    run: { steps: 40, speed: 20 },
    answer: (bs) => (counters(bs).misses >= counters(bs).hits ? 'miss' : 'hit'),
    explain: (bs) => `${count(counters(bs).hits)} hits and ${count(counters(bs).misses)} misses: an empty pool can only miss until the pages the clients use are in it.`,
  },
  {
    title: 'The clock sweep',
    text: 'When a backend needs a buffer and none is free, the clock hand sweeps the descriptors: a buffer with a usage count above 0 has it decremented and is passed over; the first unpinned one at 0 is the victim (StrategyGetBuffer).',
    predict: { question: 'When the first eviction happens, will any buffer still be empty?', choices: yesNo },
    run: { until: (bs) => counters(bs).evictions > 0, speed: 20 },
    answer: (bs) => (emptyBuffers(bs) > 0 ? 'yes' : 'no'),
    explain: (bs) => `The first eviction came at step ${count(bs.stats().step)}, with ${count(emptyBuffers(bs))} empty buffers: the sweep only evicts once the free list is empty and every buffer holds a page.`,
  },
  {
    title: 'Hot pages stay',
    text: 'With a Zipfian key distribution a few pages take most accesses. Each hit raises a buffer\'s usage count (up to 5), so those pages survive many sweeps.',
    predict: { question: 'After 2,000 more steps, will the hit ratio be above one half?', choices: yesNo },
    run: { steps: 2000, speed: 1000 },
    answer: (bs) => (counters(bs).hitRatio > 0.5 ? 'yes' : 'no'),
    explain: (bs) => `The hit ratio is ${(100 * counters(bs).hitRatio).toFixed(1)}%: the hot pages keep high usage counts, and the sweep takes the cold ones.`,
  },
  {
    title: 'Dirty victims wait for WAL',
    text: 'Updates dirty their pages. Before a dirty victim may be written, the WAL up to its page LSN must be flushed (FlushBuffer → XLogFlush). With the background writer off, backends do it themselves.',
    params: { updates: '60', bgwriter_lru_maxpages: '0' },
    predict: { question: 'In 3,000 steps, will a backend have to flush WAL itself before writing a victim?', choices: yesNo },
    run: { steps: 3000, speed: 1000 },
    answer: (bs) => (counters(bs).walFlushesBackend > 0 ? 'yes' : 'no'),
    explain: (bs) => `Backends wrote ${count(counters(bs).dirtyWrites)} dirty victims and flushed WAL ${count(counters(bs).walFlushesBackend)} times to do so.`,
  },
  {
    title: 'The same rule on a real server',
    text: 'The usage count is PostgreSQL\'s own rule, and the page\'s real PostgreSQL 18 keeps it too. It reads a one-page table 4 times from a pool that does not hold it (each read a sequential scan, which pins the page once); pg_buffercache then shows the page\'s usage count.',
    predict: { question: 'What usage count will PostgreSQL 18 show?', choices: [1, 2, 3, 4, 5].map((n) => ({ value: String(n), label: String(n) })) },
    real: { sql: usageSQL(4) },
    answer: (_, v) => String(v),
    explain: () => usageWhy,
  },
  {
    title: 'Your turn',
    text: 'That is the buffer manager\'s core loop. Change shared_buffers, the clients or the key distribution and watch the hit ratio and evictions; the exercise asks you to call the clock hand\'s next victim.',
  },
];

export const exercises = [
  {
    id: 'clock',
    title: 'the clock hand\'s next victim',
    make(rand) {
      const seed = 1 + Math.floor(rand() * 1e6);
      return {
        params: { shared_buffers: '128kB', clients: String(2 + Math.floor(rand() * 7)), updates: '20', distribution: 'zipfian', zipf_s: '1.1', seed: String(seed) },
        steps: 200 + Math.floor(rand() * 400),
        // Asked once the setup has run, so it can say where the hand stands.
        question: (bs) => `The pool is full and paused, and the clock hand (the mark on the rulers) stands at buffer ${counters(bs).clockHand}. Hover the cells to read each buffer's usage count and pins. Which buffer will the clock sweep take at the next eviction?`,
        choices: Array.from({ length: 16 }, (_, i) => ({ value: String(i), label: `buffer ${i}` })),
      };
    },
    solve(bs) {
      const n = bs.stats().nbuffers;
      const before = Array.from({ length: n }, (_, i) => bs.buffer(i));
      const hand = counters(bs).clockHand;
      const ev = counters(bs).evictions;
      if (!stepUntil(bs, () => counters(bs).evictions > ev)) {
        return { answer: '', explain: 'No eviction came in 100,000 steps; try another one.' };
      }
      // The victim is the buffer that held a valid page and now holds another.
      const victim = before.findIndex((b, i) => !b.empty && bs.buffer(i).tag !== b.tag);
      const v = before[victim] || { usage: '?', pins: '?' };
      return {
        answer: String(victim),
        explain: `The hand stood at buffer ${hand}. Going round from there, it decremented the usage count of every unpinned buffer above 0 and passed pinned ones, until buffer ${victim} (usage count ${v.usage} and ${v.pins} pins when you answered) reached 0 unpinned. Clients kept accessing pages meanwhile, raising some counts again.`,
      };
    },
  },
  {
    id: 'usage-real',
    title: 'a usage count on PostgreSQL 18',
    real: true,
    make(rand) {
      const n = 1 + Math.floor(rand() * 8);
      return {
        params: {},
        reads: n,
        question: `The page's real PostgreSQL 18 reads a one-page table ${n === 1 ? 'once' : `${n} times`}, from a pool that does not hold it. What usage count will pg_buffercache show for the page?`,
        choices: [1, 2, 3, 4, 5].map((k) => ({ value: String(k), label: String(k) })),
      };
    },
    async solve(_, setup, real) {
      const v = await real.ask(usageSQL(setup.reads));
      return { answer: String(v), explain: `PostgreSQL 18 shows ${v}. ${usageWhy}` };
    },
  },
];
