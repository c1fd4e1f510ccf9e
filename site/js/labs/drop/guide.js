// The drop lab's tour and exercise (js/guide.js): when replaying a drop looks its blocks up
// in the buffer mapping table, and when it scans every buffer descriptor.

import { counters, pick, runSteps } from '../../guide.js';
import { count, seconds } from '../../format.js';
import { dropSQL, dropWhy } from './real.js';

const scanOrLookup = [{ value: 'lookup', label: 'look each block up' }, { value: 'scan', label: 'scan every buffer' }];
const path = (bs) => (counters(bs).resultPath === 'lookup' ? 'lookup' : 'scan');
const summary = (bs) => {
  const c = counters(bs);
  return `The replay checked ${count(c.descriptorsChecked)} descriptors and made ${count(c.lookups)} lookups, ${seconds(c.modelledSeconds)} of modelled time in all.`;
};

export const tour = [
  {
    title: 'A standby replays 100 drops',
    text: 'A primary dropped 100 small tables, each in its own transaction; this standby replays the commit records. Each replay must drop the table\'s buffers from shared buffers (DropRelationsAllBuffers). The second pool replays the same WAL under PostgreSQL 13, on the same modelled clock.',
    params: { shared_buffers: '128MB', tables: '100x1', op: 'drop', transactions: 'per-relation', mode: 'recovery', policy: 'pg14', threshold: 'NB/32' },
    predict: { question: 'PostgreSQL 14 in recovery: will each drop look its one block up, or scan all 16,384 buffers?', choices: scanOrLookup },
    // The race beside it: PostgreSQL 13's 100 scans of 16,384 descriptors each, 1.6M steps
    // on the one modelled clock, end in about 8 s; 14's 100 lookups end long before.
    run: { toEnd: true, speed: 200000 },
    answer: path,
    explain: (bs) => `${summary(bs)} In recovery the fork sizes are cached, and 1 block is far below the threshold of ${counters(bs).thresholdBlocks} blocks (NBuffers/32), so each block is looked up.`,
  },
  {
    title: 'PostgreSQL 13',
    text: 'Before PostgreSQL 14 every drop checked every buffer descriptor, however small the relation.',
    params: { policy: 'pg13' },
    predict: { question: 'How will PostgreSQL 13 find the buffers?', choices: scanOrLookup },
    // 100 scans of 16,384 descriptors: fast enough to end in about 8 s, each sweep still seen.
    run: { toEnd: true, speed: 200000 },
    answer: path,
    explain: (bs) => `${summary(bs)} A scan per drop costs NBuffers checks: with a large pool, a standby replaying many drops falls far behind.`,
  },
  {
    title: 'Above the threshold',
    text: 'PostgreSQL 14 looks blocks up only when fewer than BUF_DROP_FULL_SCAN_THRESHOLD (NBuffers/32) blocks are dropped at once.',
    params: { policy: 'pg14', tables: '5x1000' },
    predict: { question: 'Each of these 5 tables has 1,000 blocks. Lookup or scan?', choices: scanOrLookup },
    run: { toEnd: true },
    answer: path,
    explain: (bs) => `${summary(bs)} 1,000 blocks is not below the threshold of ${counters(bs).thresholdBlocks}: looking up each would cost more than one pass over the descriptors.`,
  },
  {
    title: 'On the primary',
    text: 'The same drops run on the primary, not replayed.',
    params: { tables: '100x1', mode: 'primary' },
    predict: { question: 'One block per table again. Lookup or scan?', choices: scanOrLookup },
    // Both pools scan: 3.3M steps, about 8 s.
    run: { toEnd: true, speed: 400000 },
    answer: path,
    explain: (bs) => `${summary(bs)} On a primary the fork sizes are not cached (smgrnblocks_cached fails), so PostgreSQL cannot be sure a lookup finds every buffer: it scans.`,
  },
  {
    title: 'DROP TABLE on a real server',
    text: 'The page\'s real PostgreSQL 18 is a primary: it fills a table of 20,000 rows, whose pages all stay in shared buffers, then drops it. pg_buffercache counts the buffers of its relfilenode before and after.',
    predict: { question: 'How many of the table\'s buffers will be left after DROP TABLE?', choices: [{ value: 'none', label: 'none' }, { value: 'some', label: 'some' }, { value: 'all', label: 'all of them' }] },
    real: { sql: dropSQL('drop') },
    answer: (_, v) => (v === 0 ? 'none' : 'some'),
    explain: (_, v) => `${v === 0 ? 'None' : count(v)} left. ${dropWhy}`,
  },
  {
    title: 'Your turn',
    text: 'Try a larger pool, truncation or VACUUM, a checkpoint before the drops, or the lookups forced on; the exercise asks you to call lookup or scan for random cases.',
  },
];

export const exercises = [
  {
    id: 'path',
    title: 'scan or look up?',
    make(rand) {
      const sb = pick(rand, ['128MB', '256MB', '1GB']);
      const blocks = pick(rand, [1, 10, 100, 500, 1000, 5000]);
      const params = {
        shared_buffers: sb, tables: `3x${blocks}`, op: pick(rand, ['drop', 'truncate']), transactions: 'per-relation',
        mode: pick(rand, ['recovery', 'recovery', 'primary']), policy: pick(rand, ['pg14', 'pg14', 'pg13']), threshold: 'NB/32',
      };
      return {
        params,
        steps: 0,
        question: `shared_buffers = ${sb}, ${params.mode === 'recovery' ? 'a standby replaying' : 'a primary running'} ${params.op === 'drop' ? 'DROP TABLE' : 'TRUNCATE'} of 3 tables of ${blocks} blocks each, one transaction each, ${params.policy === 'pg13' ? 'PostgreSQL 13' : 'PostgreSQL 14 or later'}. Will each drop look its blocks up or scan the pool?`,
        choices: scanOrLookup,
      };
    },
    solve(bs) {
      runSteps(bs, Infinity);
      const c = counters(bs);
      return {
        answer: path(bs),
        explain: `${summary(bs)} The threshold is ${c.thresholdBlocks} blocks (NBuffers/32); lookups need PostgreSQL 14+, cached fork sizes (recovery only) and fewer blocks than the threshold.`,
      };
    },
  },
  {
    id: 'drop-real',
    title: 'what a drop leaves on PostgreSQL 18',
    real: true,
    make(rand) {
      const op = pick(rand, ['drop', 'truncate']);
      return {
        params: {},
        op,
        question: `The page's real PostgreSQL 18 fills a table whose pages stay in shared buffers, then runs ${op === 'drop' ? 'DROP TABLE' : 'TRUNCATE'} on it. How many buffers of its old relfilenode will pg_buffercache show afterwards?`,
        choices: [{ value: 'none', label: 'none' }, { value: 'some', label: 'some' }, { value: 'all', label: 'all of them' }],
      };
    },
    async solve(_, setup, real) {
      const v = await real.ask(dropSQL(setup.op));
      return { answer: v === 0 ? 'none' : 'some', explain: `PostgreSQL 18 shows ${count(v)}. ${setup.op === 'truncate' ? 'TRUNCATE gives the table a new relfilenode and unlinks the old one at commit. ' : ''}${dropWhy}` };
    },
  },
];
