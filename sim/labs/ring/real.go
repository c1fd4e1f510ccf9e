package ring

import (
	"fmt"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
)

// realVersion is the release of the page's real PostgreSQL (PGlite), whose cases the model
// runs beside it.
const realVersion = sim.Version(18)

// runReal is the job "real": the ring lab's cases that the page's PostgreSQL 18 runs too, as
// the model has them, for the real panel's side-by-side figures. Given the real pool's size
// (nbuffers) and the table's main-fork pages (pages), it returns the table's pages left in
// shared buffers after VACUUM of the cold table under each of limits (vacuum_buffer_usage_limit
// in kB; -1 for the default, 0 for no ring), and after a sequential scan of it on a server
// with the I/O settings given (io_combine_limit, effective_io_concurrency and the settings
// of sim.PinLimitProcs; each missing one a default server's).
func runReal(a lab.Args, _ func() float64, progress lab.Progress) (map[string]any, error) {
	nb, err := a.Int("nbuffers", sim.MinNBuffers, 1<<20, 16384)
	if err != nil {
		return nil, err
	}
	pages, err := a.Int("pages", 1, 1<<20, 0)
	if err != nil {
		return nil, err
	}
	if pages == 0 {
		return nil, fmt.Errorf("pages, the table's size in pages, is missing")
	}
	limits, err := a.Ints("limits", -1, maxRingKB, []int{256, 2048, 16384, 0})
	if err != nil {
		return nil, err
	}
	for _, kb := range limits {
		if kb > 0 && kb < minRingKB {
			return nil, fmt.Errorf("limits: %d kB is below the smallest ring, %d kB", kb, minRingKB)
		}
	}
	var left []any
	for i, kb := range limits {
		if progress != nil && !progress(i, len(limits)+1, "VACUUM in the model", true) {
			return nil, lab.ErrCancelled
		}
		n, err := PagesLeftAfterVacuum(realVersion, kb, nb, pages)
		if err != nil {
			return nil, err
		}
		left = append(left, n)
	}
	io, err := ioSettingsOf(a)
	if err != nil {
		return nil, err
	}
	seq, err := PagesLeftAfterSeqScanIO(realVersion, nb, pages, io)
	if err != nil {
		return nil, err
	}
	return map[string]any{"vacuum": left, "seqscan": seq, "pinLimitProcs": io.PinLimitProcs}, nil
}

// ioSettingsOf reads a server's I/O settings from a job's arguments, as pg_settings names
// them; a missing one is a default server's.
func ioSettingsOf(a lab.Args) (sim.IOSettings, error) {
	io := sim.DefaultIOSettings
	var err error
	if io.IOCombineLimit, err = a.Int("io_combine_limit", 1, 128, io.IOCombineLimit); err != nil {
		return io, err
	}
	if io.EffectiveIOConcurrency, err = a.Int("effective_io_concurrency", 0, 1000, io.EffectiveIOConcurrency); err != nil {
		return io, err
	}
	procs := map[string]int{"max_connections": 100, "autovacuum_worker_slots": 16, "max_worker_processes": 8, "max_wal_senders": 10}
	for _, k := range []string{"max_connections", "autovacuum_worker_slots", "max_worker_processes", "max_wal_senders"} {
		if procs[k], err = a.Int(k, 0, 262143, procs[k]); err != nil {
			return io, err
		}
	}
	io.PinLimitProcs = sim.PinLimitProcs(procs["max_connections"], procs["autovacuum_worker_slots"], procs["max_worker_processes"], procs["max_wal_senders"])
	return io, nil
}
