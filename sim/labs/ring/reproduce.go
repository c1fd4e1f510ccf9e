package ring

import (
	"fmt"
	"io"
	"strings"

	"github.com/bufferscope/bufferscope/sim/lab"
)

// The published ring measurements (reference/seed-results.md; pgsql-hackers, "Increase Vacuum
// ring buffer", July 2017): autovacuum's duration with the 256kB ring and a 16MB ring, in
// seconds, under two loads. The thread does not say which shared_buffers (256MB or 1GB) and
// table size (2–6GB) each load had.
var published = []struct {
	load            string
	small, large    float64
	publishedRatios string
}{
	{"one setting", 7500, 1200, "6.3x"},
	{"another setting", 75000, 11500, "6.5x"},
}

// reproSetting is one simulated setting of the thread: a pool and a table that fits the
// kernel's page cache but not shared buffers, the default load of the lab.
type reproSetting struct {
	sharedBuffers, table string
	osCache              string
}

var reproSettings = []reproSetting{
	{"256MB", "4GB", "fits"},
	{"1GB", "6GB", "fits"},
	{"256MB", "4GB", "none"},
}

// reproRings are the rings compared: the thread's two, and 64MB for "little further gain".
var reproRings = []string{"256kB", "16MB", "64MB"}

// ReproduceBudget is what make bench allows the reproduction natively (issue #16).
func (experiment) ReproduceBudget() (seconds, peakBytes float64) { return 30, 0 }

// Reproduce prints the published ring figures beside the simulated ones, every target of
// seed-results.md checked from the lab's defaults: nothing is set per row.
func (experiment) Reproduce(w, progress io.Writer) (bool, error) {
	type result struct {
		set  reproSetting
		c    []*Counters
		secs []float64
	}
	var results []result
	for _, rs := range reproSettings {
		res := result{set: rs}
		for _, ring := range reproRings {
			v, problems := table.Parse(map[string]string{"shared_buffers": rs.sharedBuffers, "table": rs.table, "os_cache": rs.osCache, "ring": ring})
			if len(problems) > 0 {
				return false, problems[0]
			}
			fmt.Fprintf(progress, "reproducing: ring %s, shared_buffers %s, table %s, os_cache %s\n", ring, rs.sharedBuffers, rs.table, rs.osCache)
			c, err := RunToEnd(SetupOf(v))
			if err != nil {
				return false, err
			}
			res.c = append(res.c, c)
			res.secs = append(res.secs, c.VacuumSeconds)
		}
		results = append(results, res)
	}
	var b strings.Builder
	d := table.Defaults()
	fmt.Fprintf(&b, "# ring: VACUUM's ring size (pgsql-hackers, \"Increase Vacuum ring buffer\", July 2017)\n\n")
	fmt.Fprintf(&b, "Published: autovacuum with the 256kB ring against a 16MB ring, tables of 2–6GB that fit the OS cache but not shared buffers (256MB or 1GB), an OLTP load updating rows.\n\n")
	fmt.Fprintf(&b, "| load | 256kB ring | 16MB ring | ratio |\n|---|---|---|---|\n")
	for _, p := range published {
		fmt.Fprintf(&b, "| %s | %.0f s | %.0f s | %s |\n", p.load, p.small, p.large, p.publishedRatios)
	}
	fmt.Fprintf(&b, "\nSimulated with the lab's defaults (PostgreSQL %s, %s clients, flush latency %s, synchronous_commit %s, %s%% of pages pruned, hot set %s%% of shared_buffers, seed %s):\n\n",
		d.Text("version"), d.Text("clients"), d.Text("flush_latency"), d.Text("synchronous_commit"), d.Text("dirty_share"), d.Text("hot_set"), d.Text("seed"))
	fmt.Fprintf(&b, "| shared_buffers | table | os_cache | ring | VACUUM s | VACUUM's forced WAL flushes (own or waited for) | WAL writer flushes | commit flushes | foreground hit ratio | foreground TPS |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range results {
		for i, ring := range reproRings {
			c := r.c[i]
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %.2f | %d | %d | %d | %.4f | %.0f |\n", r.set.sharedBuffers, r.set.table, r.set.osCache, ring,
				c.VacuumSeconds, c.VacuumWALFlushes, c.WALWriterFlushes, c.CommitFlushes, c.ForegroundHitRatio, c.ForegroundTPS)
		}
	}
	var targets lab.Targets
	check := targets.Add
	fmt.Fprintf(&b, "\nTargets (seed-results.md):\n\n")
	ratio := func(r result) float64 { return r.secs[0] / r.secs[1] }
	for _, r := range results {
		if r.set.osCache != "fits" {
			continue
		}
		x := ratio(r)
		check(x >= 3 && x <= 10, fmt.Sprintf("256kB/16MB duration ratio between 3 and 10 (%s, %s, fits)", r.set.sharedBuffers, r.set.table),
			fmt.Sprintf("%.2fx (published 6.3x and 6.5x)", x))
	}
	fits, none := results[0], results[2]
	check(ratio(none) < ratio(fits), "the ratio shrinks when the table does not fit the OS cache",
		fmt.Sprintf("%.2fx not fitting against %.2fx fitting (%s, %s)", ratio(none), ratio(fits), fits.set.sharedBuffers, fits.set.table))
	for _, r := range results {
		if r.set.osCache != "fits" {
			continue
		}
		gain := (r.secs[1] - r.secs[2]) / r.secs[1]
		check(gain < 0.2, fmt.Sprintf("16MB→64MB gains under 20%% (%s, %s)", r.set.sharedBuffers, r.set.table), fmt.Sprintf("%.1f%%", 100*gain))
	}
	for _, r := range results {
		h := []float64{r.c[0].ForegroundHitRatio, r.c[1].ForegroundHitRatio, r.c[2].ForegroundHitRatio}
		check(h[1] < h[0] && h[2] < h[1], fmt.Sprintf("the foreground hit ratio is lower with the larger ring (%s, %s, %s)", r.set.sharedBuffers, r.set.table, r.set.osCache),
			fmt.Sprintf("%.4f at 256kB, %.4f at 16MB, %.4f at 64MB", h[0], h[1], h[2]))
	}
	targets.WriteMarkdown(&b)
	fmt.Fprintf(&b, "\nAbsolute seconds are not comparable: the thread's autovacuum ran with cost-based delay and index passes, which this model leaves out.\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return false, err
	}
	return targets.Passed(), nil
}

var _ lab.Reproducer = experiment{}
