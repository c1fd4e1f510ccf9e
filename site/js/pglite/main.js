// The real PostgreSQL worker: PGlite (PostgreSQL 18 built for WebAssembly) in a module worker
// of its own, started when the reader opens the "Real PostgreSQL 18" panel and terminated when
// they close it, so that its memory goes with it.
//
// The build gives it __PGLITE_FILES__, the hashed names of the files it loads, each beside this
// script: the server's and initdb's wasm, the file system image (pglite.data) and the
// pg_buffercache and pageinspect bundles. It fetches them itself, so the page's thread never
// holds them, and reports the bytes as they arrive.
//
// Messages from the page:
//   {type: 'start'}                 fetch, compile, initdb and start; answers progress, then ready
//   {type: 'exec', id, sql}         run one or more statements; answers result or error
//   {type: 'pool', id}              read the shared buffers (pg_buffercache); answers pool or error
// Messages to the page:
//   {type: 'progress', loaded, total, what}
//   {type: 'ready', version, settings, startMs, bytes}
//   {type: 'result', id, results: [{fields, rows, affectedRows}], ms}
//   {type: 'pool', id, server, nbuffers, relations, rows}   relations and rows as CSV text
//   {type: 'error', id, error: {message, severity, code, detail, hint, position}}
//   {type: 'failed', message}       start-up failed; the worker is of no further use

import { PGlite } from '@electric-sql/pglite';

const FILES = __PGLITE_FILES__;

let db = null;

// fetchAll fetches every file at once and counts their bytes as they arrive.
async function fetchAll(names) {
  const total = names.reduce((n, f) => n + f.bytes, 0);
  let loaded = 0;
  let last = 0;
  const one = async (f) => {
    const res = await fetch(new URL(f.name, self.location.href));
    if (!res.ok) throw new Error(`${f.name}: ${res.status} ${res.statusText}`);
    const reader = res.body.getReader();
    const parts = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      // Bytes of the body as decoded; with compression they run ahead of the transfer, so the
      // total is the files' own sizes.
      loaded += value.byteLength;
      const now = performance.now();
      if (now - last > 100) {
        last = now;
        postMessage({ type: 'progress', loaded: Math.min(loaded, total), total, what: 'downloading' });
      }
    }
    return new Blob(parts);
  };
  const blobs = await Promise.all(names.map(one));
  postMessage({ type: 'progress', loaded: total, total, what: 'downloaded' });
  return blobs;
}

// extension is a PGlite extension whose bundle is the file name beside this script.
function extension(name, file) {
  return { name, setup: async () => ({ bundlePath: new URL(file, self.location.href) }) };
}

async function start() {
  const t0 = performance.now();
  const [wasm, initdb, data] = await fetchAll([FILES.wasm, FILES.initdb, FILES.data]);
  postMessage({ type: 'progress', loaded: 1, total: 1, what: 'compiling' });
  const [pgliteWasmModule, initdbWasmModule] = await Promise.all([
    WebAssembly.compile(await wasm.arrayBuffer()),
    WebAssembly.compile(await initdb.arrayBuffer()),
  ]);
  postMessage({ type: 'progress', loaded: 1, total: 1, what: 'starting PostgreSQL (initdb)' });
  db = await PGlite.create({
    pgliteWasmModule,
    initdbWasmModule,
    fsBundle: data,
    extensions: {
      pg_buffercache: extension('pg_buffercache', FILES.pg_buffercache.name),
      pageinspect: extension('pageinspect', FILES.pageinspect.name),
    },
  });
  const r = await db.query(`SELECT version(),
    current_setting('shared_buffers') AS shared_buffers,
    current_setting('block_size') AS block_size,
    current_setting('vacuum_buffer_usage_limit') AS vacuum_buffer_usage_limit,
    current_setting('io_combine_limit') AS io_combine_limit`);
  const row = r.rows[0];
  const { version, ...settings } = row;
  postMessage({
    type: 'ready', version, settings, startMs: performance.now() - t0,
    bytes: FILES.wasm.bytes + FILES.initdb.bytes + FILES.data.bytes,
    // What its fetches came to over the wire (headers and compressed bodies), as Resource
    // Timing counts them in this worker.
    transferred: performance.getEntriesByType('resource').reduce((n, e) => n + e.transferSize, 0),
  });
}

// describe is PostgreSQL's error as it words it: the fields of its ErrorResponse.
function describe(err) {
  return {
    message: String(err && err.message || err),
    severity: err && err.severity || 'ERROR',
    code: err && err.code || '',
    detail: err && err.detail || '',
    hint: err && err.hint || '',
    position: err && err.position || '',
  };
}

// plain turns a value into one the structured clone keeps and a table can show.
function plain(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Date) return v.toISOString();
  if (v instanceof Uint8Array) return `\\x${Array.from(v.subarray(0, 64), (b) => b.toString(16).padStart(2, '0')).join('')}${v.length > 64 ? '…' : ''}`;
  if (typeof v === 'object') return JSON.stringify(v);
  return v;
}

// MAX_ROWS is how many rows of one result travel to the page; the count says how many there were.
const MAX_ROWS = 1000;

// statements splits SQL at its top-level semicolons, as psql does before it sends each
// statement on its own: VACUUM, for one, refuses to run inside the implicit transaction of a
// string of several. Quotes ('…', "…", E'…' with backslashes), dollar quotes ($tag$…$tag$) and
// comments (-- and nested /* */) keep their semicolons. Empty statements are dropped.
function statements(sql) {
  const out = [];
  let start = 0;
  let i = 0;
  const n = sql.length;
  const push = (end) => {
    const s = sql.slice(start, end).trim();
    if (s && !/^(--[^\n]*\n?\s*)+$/.test(s)) out.push(s);
  };
  while (i < n) {
    const c = sql[i];
    if (c === '-' && sql[i + 1] === '-') {
      while (i < n && sql[i] !== '\n') i++;
    } else if (c === '/' && sql[i + 1] === '*') {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (sql[i] === '/' && sql[i + 1] === '*') { depth++; i += 2; } else if (sql[i] === '*' && sql[i + 1] === '/') { depth--; i += 2; } else i++;
      }
    } else if (c === "'" || c === '"') {
      const escapes = c === "'" && /[eE]/.test(sql[i - 1] || '') && !/[\w$]/.test(sql[i - 2] || '');
      i++;
      while (i < n) {
        if (escapes && sql[i] === '\\') { i += 2; continue; }
        if (sql[i] === c) {
          if (sql[i + 1] === c) { i += 2; continue; }
          break;
        }
        i++;
      }
      i++;
    } else if (c === '$') {
      const m = /^\$([A-Za-z_][A-Za-z_0-9]*)?\$/.exec(sql.slice(i));
      if (m && !/[\w$]/.test(sql[i - 1] || '')) {
        const end = sql.indexOf(m[0], i + m[0].length);
        i = end < 0 ? n : end + m[0].length;
      } else i++;
    } else if (c === ';') {
      push(i);
      start = ++i;
    } else i++;
  }
  push(n);
  return out;
}

async function exec(id, sql) {
  const t0 = performance.now();
  // One statement at a time, as psql sends them: each in its own transaction unless the SQL
  // says BEGIN.
  const results = [];
  for (const stmt of statements(sql)) results.push(...await db.exec(stmt, { rowMode: 'array' }));
  postMessage({
    type: 'result', id, ms: performance.now() - t0,
    results: results.map((r) => ({
      fields: r.fields.map((f) => f.name),
      rows: r.rows.slice(0, MAX_ROWS).map((row) => row.map(plain)),
      rowCount: r.rows.length,
      affectedRows: r.affectedRows ?? null,
    })),
  });
}

// POOL_SQL reads the shared buffers as the grid draws them (bufferscope.showRealPool): every
// valid row of pg_buffercache as COPY writes it in CSV, and the relations those rows hold
// pages of, named from pg_class (the reader's, or a system catalog's) in the order of their
// first buffer. Pages of another database, or of a relation no longer in pg_class, go
// unnamed.
const POOL_SQL = `
SELECT 'PostgreSQL ' || current_setting('server_version') AS server,
  (SELECT setting::int FROM pg_settings WHERE name = 'shared_buffers') AS nbuffers,
  (SELECT coalesce(string_agg(concat_ws(',', bufferid, relfilenode, reltablespace, reldatabase, relforknumber,
       relblocknumber, CASE WHEN isdirty THEN 't' ELSE 'f' END, usagecount, pinning_backends), E'\n' ORDER BY bufferid), '')
     FROM pg_buffercache WHERE relfilenode IS NOT NULL) AS rows,
  (WITH b AS (SELECT reltablespace, reldatabase, relfilenode, min(bufferid) AS first
              FROM pg_buffercache WHERE relfilenode IS NOT NULL GROUP BY 1, 2, 3)
   SELECT coalesce(string_agg(concat_ws(',', b.reltablespace, b.reldatabase, b.relfilenode,
       coalesce('"' || replace(c.relname, '"', '""') || '"', ''),
       CASE WHEN c.oid IS NULL OR n.nspname IN ('pg_catalog', 'pg_toast', 'information_schema') THEN 't' ELSE 'f' END),
       E'\n' ORDER BY b.first), '')
   FROM b LEFT JOIN pg_class c ON pg_relation_filenode(c.oid) = b.relfilenode
     AND b.reldatabase IN (0, (SELECT oid FROM pg_database WHERE datname = current_database()))
   LEFT JOIN pg_namespace n ON n.oid = c.relnamespace) AS relations`;

async function pool(id) {
  await db.exec('CREATE EXTENSION IF NOT EXISTS pg_buffercache');
  const r = await db.query(POOL_SQL);
  const { server, nbuffers, rows, relations } = r.rows[0];
  postMessage({ type: 'pool', id, server, nbuffers, rows, relations });
}

let starting = null;

self.onmessage = async (e) => {
  const m = e.data;
  if (!m || typeof m !== 'object') return;
  if (m.type === 'start') {
    if (!starting) {
      starting = start().catch((err) => {
        postMessage({ type: 'failed', message: String(err && err.message || err) });
      });
    }
    return;
  }
  if (m.type !== 'exec' && m.type !== 'pool') return;
  const id = m.id;
  if (!db) {
    postMessage({ type: 'error', id, error: describe(new Error('PostgreSQL has not started yet')) });
    return;
  }
  try {
    if (m.type === 'pool') {
      await pool(id);
      return;
    }
    if (typeof m.sql !== 'string' || m.sql.length > 1 << 20) throw new Error('The SQL must be text of at most 1 MB');
    await exec(id, m.sql);
  } catch (err) {
    postMessage({ type: 'error', id, error: describe(err) });
  }
};
