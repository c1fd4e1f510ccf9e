// The pins lab's page: its introduction and the notes under its controls. Everything else
// (form, counters, legend, playback) is the page's own, built from the lab's tables. The
// lab's own drawing of leaf items and its TPS charts are not written yet.

export default {
  intro: `<p>Index scans that find entries pointing at dead rows mark them <code>LP_DEAD</code> so later scans skip them. Before PostgreSQL 9.5 a scan kept its pin on the B-tree leaf, so the mark was always safe, but VACUUM's cleanup lock had to wait for the pin. Since 9.5 an MVCC scan of a logged index drops the pin, and may set the mark only if the page's LSN has not moved meanwhile: on hot pages many marks are lost.</p>
    <p>Run a pgbench-like load under each pin policy and watch hints set and lost, dead items, splits, VACUUM waiting for pins, and transactions per second.</p>`,
  settingsTitle: 'Server and load',

  notes(params) {
    const out = {};
    if (params.policy === 'drop-pin' && params.logged === 'false') {
      out.policy = 'Before PostgreSQL 19 an unlogged index\'s LSN never moves, so its scans keep the pin: this run behaves like keep-pin.';
    }
    if (params.index_only === 'true') {
      out.index_only = 'Index-only scans never drop the leaf pin, under any policy.';
    }
    return out;
  },
};
