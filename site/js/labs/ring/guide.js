// The ring lab's tour and exercise (js/guide.js): VACUUM's ring of buffers and the WAL
// flushes it forces when it comes round to a page whose WAL is not yet flushed.

import { count, durationText, plural } from '../../format.js';
import { counters, pick, runSteps, yesNo } from '../../guide.js';
import { fillSQL, vacuumSQL, vacuumWhy } from './real.js';

export const tour = [
  {
    title: 'VACUUM through a ring',
    text: 'VACUUM reads a table through a small ring of buffers (GetAccessStrategy) so it does not push the workload\'s pages out. Each page it prunes or freezes is dirtied under a WAL record; when the ring comes round to that buffer, its WAL must be flushed before the page can be written.',
    params: { shared_buffers: '128MB', version: '16', ring: 'default', table: '80MB', dirty_share: '100', clients: '0' },
    predict: { question: 'With PostgreSQL 16\'s 256kB ring (32 buffers) and no other activity, will VACUUM have to flush WAL itself?', choices: yesNo },
    run: { toEnd: true },
    answer: (bs) => (counters(bs).vacuumWalSyncs > 0 ? 'yes' : 'no'),
    explain: (bs) => {
      const c = counters(bs);
      return `VACUUM wrote ${count(c.vacuumWrites)} pages itself, and ${count(c.vacuumWalFlushes)} of those writes waited for WAL: ${plural(c.vacuumWalSyncs, 'flush', 'flushes')} VACUUM made itself, ${count(c.vacuumWalWaits)} on the WAL writer's. Each lap of a small ring reaches pages whose records are still unflushed.`;
    },
  },
  {
    title: 'A larger ring',
    text: 'PostgreSQL 17 raised the default to 2MB (vacuum_buffer_usage_limit): 256 buffers, so the WAL writer has longer to flush a page\'s record before the ring comes back to it.',
    params: { version: '17' },
    predict: { question: 'With the 256kB ring about one write per lap, one per 32 pages VACUUM wrote, waited for WAL. Will fewer writes per page written wait with the 2MB ring?', choices: yesNo },
    run: { toEnd: true },
    answer: (bs) => {
      const c = counters(bs);
      return c.vacuumWalFlushes * 32 < c.vacuumWrites ? 'yes' : 'no';
    },
    explain: (bs) => {
      const c = counters(bs);
      const per = c.vacuumWalFlushes > 0 ? `one per ${count(Math.round(c.vacuumWrites / c.vacuumWalFlushes))} pages written` : 'none at all';
      return `${count(c.vacuumWalFlushes)} of the ${count(c.vacuumWrites)} pages VACUUM wrote with a ring of ${count(c.ringBuffers)} buffers waited for WAL: ${per}, against one per 32 with 256kB.`;
    },
  },
  {
    title: 'The ring on a real server',
    text: 'The page\'s real PostgreSQL 18 fills a table of about 6,900 pages (a few seconds in WebAssembly), empties the pool of it, and runs VACUUM with vacuum_buffer_usage_limit = 256kB; pg_buffercache then counts the table\'s pages in shared buffers.',
    predict: { question: 'How many of the table\'s pages will VACUUM leave in shared buffers?', choices: [{ value: '32', label: '32: the ring' }, { value: '256', label: '256: the default ring' }, { value: 'all', label: 'all of them' }] },
    real: { sql: `${fillSQL}\n${vacuumSQL(256)}` },
    answer: (_, v) => (v > 1000 ? 'all' : String(v)),
    explain: (_, v) => `${count(v)} pages. ${vacuumWhy(256)}`,
  },
  {
    title: 'Your turn',
    text: 'Try the WAL device\'s latency, the clients\' synchronous_commit, or no ring at all; the exercise asks you to estimate the flushes.',
  },
];

const buckets = [
  { value: 'none', label: 'none', test: (n) => n === 0 },
  { value: 'few', label: '1 to 99', test: (n) => n > 0 && n < 100 },
  { value: 'many', label: '100 to 999', test: (n) => n >= 100 && n < 1000 },
  { value: 'lots', label: '1,000 or more', test: (n) => n >= 1000 },
];

export const exercises = [
  {
    id: 'flushes',
    title: 'how many WAL flushes will VACUUM make?',
    make(rand) {
      const params = {
        shared_buffers: '128MB', version: '17', ring: pick(rand, ['0', '256kB', '2MB', '16MB']), table: pick(rand, ['40MB', '80MB']),
        dirty_share: pick(rand, ['0', '10', '100']), flush_latency: pick(rand, ['100us', '1ms']), clients: '0',
      };
      return {
        params,
        steps: 0,
        question: `VACUUM passes over a ${params.table} table, changing ${params.dirty_share}% of its pages, through a ring of ${params.ring === '0' ? 'no buffers (no ring)' : params.ring}, with WAL flushes taking ${durationText(params.flush_latency)} and no other clients. How many times will VACUUM have to flush WAL before writing a page?`,
        choices: buckets.map(({ value, label }) => ({ value, label })),
      };
    },
    solve(bs) {
      runSteps(bs, Infinity);
      const c = counters(bs);
      const n = c.vacuumWalSyncs;
      return {
        answer: buckets.find((b) => b.test(n)).value,
        explain: `VACUUM flushed WAL ${plural(n, 'time')} and wrote ${count(c.vacuumWrites)} pages itself, reusing ring buffers ${count(c.ringReuses)} times (ring of ${count(c.ringBuffers)} buffers). Pages it does not change need no WAL; without a ring, its pages stay in shared buffers and others write them later.`,
      };
    },
  },
  {
    id: 'ring-real',
    title: 'what VACUUM leaves on PostgreSQL 18',
    real: true,
    make(rand) {
      const kb = pick(rand, [128, 512, 1024, 4096, 8192]);
      const ring = kb / 8;
      return {
        params: {},
        kb,
        question: `The page's real PostgreSQL 18 fills a table of about 6,900 pages, empties the pool of it and runs VACUUM with vacuum_buffer_usage_limit = ${kb}kB. How many of the table's pages will stay in shared buffers?`,
        choices: [0, ring, 2 * ring].map((n) => ({ value: String(n), label: count(n) })).concat([{ value: 'all', label: 'all of them' }]),
      };
    },
    async solve(_, setup, real) {
      const v = await real.ask(`${fillSQL}\n${vacuumSQL(setup.kb)}`);
      return { answer: v > 3000 ? 'all' : String(v), explain: `PostgreSQL 18 kept ${count(v)} pages. ${vacuumWhy(setup.kb)}` };
    },
  },
];
