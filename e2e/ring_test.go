//go:build !js

package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// ringStats are the ring lab's counters the page's bridge reports.
type ringStats struct {
	Done               bool    `json:"done"`
	VacuumSeconds      float64 `json:"vacuumSeconds"`
	PagesVacuumed      uint64  `json:"pagesVacuumed"`
	VacuumWALFlushes   uint64  `json:"vacuumWalFlushes"`
	WALWriterFlushes   uint64  `json:"walwriterFlushes"`
	ForegroundHitRatio float64 `json:"foregroundHitRatio"`
	ForegroundTPS      float64 `json:"foregroundTps"`
}

// ringRow is one row of bufferscope ring --format json.
type ringRow struct {
	VacuumSeconds      float64 `json:"vacuum_seconds"`
	PagesVacuumed      uint64  `json:"pages_vacuumed"`
	VacuumWALFlushes   uint64  `json:"vacuum_wal_flushes"`
	WALWriterFlushes   uint64  `json:"walwriter_flushes"`
	ForegroundHitRatio float64 `json:"foreground_hit_ratio"`
	ForegroundTPS      float64 `json:"foreground_tps"`
}

// TestRingMatchesCommand: the ring lab opened by its address runs VACUUM to the end, and
// its counters are what bufferscope ring prints for the same parameters and seed.
func TestRingMatchesCommand(t *testing.T) {
	args := map[string]string{"shared_buffers": "8MB", "table": "16MB", "ring": "256kB", "clients": "4", "seed": "3"}
	q, flags := []string{"lab=ring", "play=0"}, []string{"ring", "--format", "json"}
	for k, v := range args {
		q = append(q, k+"="+v)
		flags = append(flags, "--"+strings.ReplaceAll(k, "_", "-"), v)
	}
	p := openPage(t, "/?"+strings.Join(q, "&"))
	eval[any](p, `bufferscope.setSpeed("max")`)
	eval[any](p, `bufferscope.play()`)
	start := time.Now()
	got := waitJS[ringStats](p, 60*time.Second, "VACUUM to end", `(s => s.lab === "ring" && s.counters.done && s.counters)(bufferscope.stats())`)
	t.Logf("the page's VACUUM ended in %.1fs", time.Since(start).Seconds())
	out, err := exec.Command(bufferscopeCommand(t), flags...).Output()
	if err != nil {
		t.Fatalf("bufferscope %s: %v\n%s", strings.Join(flags, " "), err, out)
	}
	var rows []ringRow
	if err := json.Unmarshal(out, &rows); err != nil || len(rows) != 1 {
		t.Fatalf("bufferscope ring printed %d rows (%v):\n%s", len(rows), err, out)
	}
	want := rows[0]
	if got.PagesVacuumed != want.PagesVacuumed || got.VacuumWALFlushes != want.VacuumWALFlushes || got.WALWriterFlushes != want.WALWriterFlushes ||
		math.Abs(got.VacuumSeconds-want.VacuumSeconds) > 1e-6 || math.Abs(got.ForegroundHitRatio-want.ForegroundHitRatio) > 1e-6 ||
		math.Abs(got.ForegroundTPS-want.ForegroundTPS) > 0.05 {
		t.Errorf("the page's VACUUM ended with %+v; bufferscope ring prints %+v", got, want)
	}
	if want.PagesVacuumed != 2048 {
		t.Errorf("bufferscope ring vacuumed %d pages of a 16MB table", want.PagesVacuumed)
	}
	sel := "#c-pagesVacuumed"
	waitJS[bool](p, waitTimeout, sel+" to show the pages", fmt.Sprintf(`document.querySelector(%q).dataset.value === %q`, sel, fmt.Sprint(want.PagesVacuumed)))

	// The chart sweeps the ring size in the worker with the page's settings.
	eval[any](p, `document.querySelector("#ring-run").click()`)
	summary := waitJS[string](p, 60*time.Second, "the ring chart", `(t => t.includes("256kB") && t)(document.querySelector("#ring-summary").textContent)`)
	if !eval[bool](p, `Boolean(document.querySelector("#ring-chart canvas"))`) {
		t.Errorf("no chart drawn; the summary says %q", summary)
	}
}
