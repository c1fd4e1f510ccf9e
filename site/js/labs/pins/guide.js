// The pins lab's tour and exercise (js/guide.js): whether a scan's LP_DEAD hints stick,
// and VACUUM waiting for a pin.

import { count, plural, seconds } from '../../format.js';
import { counters, pick, runSteps, yesNo } from '../../guide.js';
import { deadSQL, deadWhy } from './real.js';

const short = { duration: '60s', slice: '5s', naptime: '10s' };

export const tour = [
  {
    title: 'Keeping the leaf pin',
    text: 'Index scans that find entries pointing at dead heap tuples mark them LP_DEAD (_bt_killitems) so later scans skip them. Before PostgreSQL 9.5 a scan kept its pin on the leaf page while it worked, which made the hint always safe, and made VACUUM\'s cleanup lock wait.',
    params: { ...short, clients: '20', policy: 'keep-pin', unique: 'true', logged: 'true', vacuum: 'true' },
    predict: { question: 'With 20 clients on the hot leaf, will VACUUM have to wait for a pin?', choices: yesNo },
    run: { toEnd: true },
    answer: (bs) => (counters(bs).vacuumWaitSeconds > 0 ? 'yes' : 'no'),
    explain: (bs) => `VACUUM waited ${seconds(counters(bs).vacuumWaitSeconds)} of simulated server time for pins (LockBufferForCleanup); ${plural(counters(bs).hintsSet, 'hint was', 'hints were')} set and ${count(counters(bs).hintsLost)} lost.`,
  },
  {
    title: 'Dropping it',
    text: 'From 9.5, an MVCC scan of a WAL-logged index drops the pin after reading the page. To set a hint later it re-reads the page, and gives up if the page LSN has moved: the items may no longer be the ones it saw.',
    params: { policy: 'drop-pin' },
    predict: { question: 'Will any hints be lost now?', choices: yesNo },
    run: { toEnd: true },
    answer: (bs) => (counters(bs).hintsLost > 0 ? 'yes' : 'no'),
    explain: (bs) => `${plural(counters(bs).hintsLost, 'hint was', 'hints were')} lost and ${count(counters(bs).hintsSet)} set; VACUUM waited ${seconds(counters(bs).vacuumWaitSeconds)} of simulated server time.`,
  },
  {
    title: 'An unlogged index',
    text: 'An unlogged index writes no WAL, so its page LSN never moves before PostgreSQL 19: 9.5–18 cannot tell a changed page, and keep the pin.',
    params: { logged: 'false' },
    predict: { question: 'Will VACUUM wait for pins again?', choices: yesNo },
    run: { toEnd: true },
    answer: (bs) => (counters(bs).vacuumWaitSeconds > 0 ? 'yes' : 'no'),
    explain: (bs) => `VACUUM waited ${seconds(counters(bs).vacuumWaitSeconds)} of simulated server time; ${plural(counters(bs).hintsLost, 'hint was', 'hints were')} lost. PostgreSQL 19 gives unlogged indexes fake LSNs so their scans can drop the pin too.`,
  },
  {
    title: 'A lost hint on a real server',
    text: 'The page\'s real PostgreSQL 18 makes a B-tree leaf whose 100 middle entries point at deleted rows. A cursor reads 5 rows, an insert lands on the same leaf (its LSN moves), and the cursor reads the rest; bt_page_items then counts the entries marked LP_DEAD.',
    predict: { question: 'How many of the 100 entries will be marked dead?', choices: [{ value: '0', label: 'none' }, { value: '100', label: 'all 100' }] },
    real: { sql: deadSQL('lp_tour', 'insert') },
    answer: (_, v) => String(v),
    explain: (_, v) => `${count(v)} marked dead. ${deadWhy}`,
  },
  {
    title: 'Your turn',
    text: 'Try more clients, fewer SELECTs, a non-unique index, and compare the TPS per slice of both policies; the exercise asks whether hints stick.',
  },
];

export const exercises = [
  {
    id: 'hints',
    title: 'will the hints stick?',
    make(rand) {
      const params = {
        ...short, clients: pick(rand, ['1', '4', '40']), policy: pick(rand, ['keep-pin', 'drop-pin', 'pg19']),
        logged: pick(rand, ['true', 'false']), unique: 'true', select_share: '0.5', vacuum: 'true', seed: String(1 + Math.floor(rand() * 1000)),
      };
      const pol = { 'keep-pin': 'keeps the leaf pin (before 9.5)', 'drop-pin': 'drops the pin (9.5–18)', pg19: 'drops the pin, unlogged too (19)' }[params.policy];
      return {
        params,
        steps: 0,
        question: `${plural(Number(params.clients), 'client')}, a ${params.logged === 'true' ? 'logged' : 'unlogged'} unique index, a server that ${pol}. Over the run, will any LP_DEAD hint be lost?`,
        choices: yesNo,
      };
    },
    solve(bs, setup) {
      runSteps(bs, Infinity);
      const c = counters(bs);
      // Before 19 an unlogged index's LSN never moves, so its scans keep the pin (params.go).
      const kept = setup.params.policy === 'keep-pin' || setup.params.policy === 'drop-pin' && setup.params.logged !== 'true';
      const why = kept
        ? 'This server kept the leaf pin for this index, so no scan\'s hints failed the LSN check; a split still loses hints under any policy: the item moved to the new right page, or the split rewrote the leaf without its LP_DEAD marks.'
        : 'This server dropped the pin after reading each leaf: a scan gives its hints up when the leaf\'s LSN moved meanwhile (another backend changed the page), and a split loses hints under any policy (the item moved, or the split rewrote the leaf without its marks).';
      return {
        answer: c.hintsLost > 0 ? 'yes' : 'no',
        explain: `${plural(c.hintsSet, 'item was', 'items were')} marked LP_DEAD (by scans and by inserts' unique checks) and ${plural(c.hintsLost, 'hint was', 'hints were')} lost. ${why}`,
      };
    },
  },
  {
    id: 'hints-real',
    title: 'will the hints stick on PostgreSQL 18?',
    real: true,
    make(rand) {
      const how = pick(rand, ['plain', 'cursor', 'insert']);
      const what = {
        plain: 'a plain index scan reads them',
        cursor: 'a cursor reads 5 of the rows, then the rest',
        insert: 'a cursor reads 5 of the rows, a row is inserted into the same leaf, then the cursor reads the rest',
      }[how];
      return {
        params: {},
        how,
        question: `The page's real PostgreSQL 18 makes a B-tree leaf whose 100 middle entries point at deleted rows, and ${what}. How many of the 100 entries will bt_page_items show marked dead?`,
        choices: [{ value: '0', label: 'none' }, { value: '100', label: 'all 100' }],
      };
    },
    async solve(_, setup, real) {
      const v = await real.ask(deadSQL('lp_exercise', setup.how));
      return { answer: String(v), explain: `PostgreSQL 18 marked ${count(v)}. ${deadWhy}` };
    },
  },
];
