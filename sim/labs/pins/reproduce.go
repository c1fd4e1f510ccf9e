package pins

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/bufferscope/bufferscope/sim/lab"
)

// published is the table of the pins section of reference/seed-results.md (Peter
// Geoghegan, pgsql-hackers, July 2017, "LP_DEAD hinting and not holding on to a buffer pin
// on leaf page"): pgbench, Zipfian keys, 50% SELECT and 50% UPDATE, logged tables, unique
// primary key, 10-minute runs; TPS with the pin kept (8217fb14) and dropped (2ed5b87f).
var published = []struct {
	clients    int
	kept, drop float64
}{
	{10, 201569, 204154}, {20, 328180, 333358}, {40, 196352, 194692}, {70, 121083, 116881},
	{110, 77989, 73414}, {160, 48958, 45830}, {230, 27699, 25510}, {310, 16369, 15137},
	{400, 10327, 9486}, {500, 6920, 6496}, {650, 4315, 3971}, {800, 2850, 2772},
}

// Reproduction is the simulated counterpart of the published table and its targets.
type Reproduction struct {
	Kept, Drop []Row
	Checks     lab.Targets
}

// Reproduce runs the published experiment with the lab's defaults (unique, logged, 50%
// SELECT, Zipfian 1.1, 600s in 5s slices) for every client count under both policies.
func Reproduce(progress io.Writer) (*Reproduction, error) {
	r := &Reproduction{}
	for _, p := range published {
		for _, pol := range policiesCompared {
			v, problems := table.Parse(map[string]string{"clients": strconv.Itoa(p.clients), "policy": pol.String()})
			if len(problems) > 0 {
				return nil, problems[0]
			}
			rows, err := experiment{}.Run([]lab.Values{v}, progress)
			if err != nil {
				return nil, err
			}
			if pol == KeepPin {
				r.Kept = append(r.Kept, rows[0].(Row))
			} else {
				r.Drop = append(r.Drop, rows[0].(Row))
			}
		}
	}
	r.check()
	return r, nil
}

// peak returns the index of the highest TPS.
func peak(rows []Row) int {
	best := 0
	for i, r := range rows {
		if r.TPS > rows[best].TPS {
			best = i
		}
	}
	return best
}

func (r *Reproduction) check() {
	for _, c := range []struct {
		name string
		rows []Row
	}{{"keep-pin", r.Kept}, {"drop-pin", r.Drop}} {
		pk := peak(c.rows)
		last := len(c.rows) - 1
		ok := pk > 0 && pk < last && c.rows[last].TPS < c.rows[pk].TPS
		r.Checks = append(r.Checks, lab.Target{
			Name:   "the " + c.name + " curve rises then falls with clients",
			Pass:   ok,
			Detail: fmt.Sprintf("peak %.0f tps at %d clients; %.0f at %d, %.0f at %d", c.rows[pk].TPS, c.rows[pk].Clients, c.rows[0].TPS, c.rows[0].Clients, c.rows[last].TPS, c.rows[last].Clients),
		})
	}
	pk := peak(r.Kept)
	var low, past []string
	lowOK, pastOK := true, true
	sum, n := 0.0, 0
	for i := range r.Kept {
		ratio := r.Drop[i].TPS/r.Kept[i].TPS - 1
		switch {
		case r.Kept[i].Clients <= 20:
			lowOK = lowOK && ratio >= -0.03 && ratio <= 0.03
			low = append(low, fmt.Sprintf("%d: %+.1f%%", r.Kept[i].Clients, 100*ratio))
		case i > pk:
			sum += ratio
			n++
			past = append(past, fmt.Sprintf("%d: %+.1f%%", r.Kept[i].Clients, 100*ratio))
		}
	}
	r.Checks = append(r.Checks, lab.Target{
		Name: "drop-pin within ±3% of keep-pin at 10 and 20 clients", Pass: lowOK,
		Detail: strings.Join(low, ", "),
	})
	mean := 0.0
	if n > 0 {
		mean = sum / float64(n)
	}
	pastOK = n > 0 && mean <= -0.02 && mean >= -0.10
	r.Checks = append(r.Checks, lab.Target{
		Name: "drop-pin 2–10% below keep-pin past the peak (mean of the rows past keep-pin's peak)", Pass: pastOK,
		Detail: fmt.Sprintf("mean %+.1f%% (%s)", 100*mean, strings.Join(past, ", ")),
	})
	ck, cd := 0.0, 0.0
	for i := range r.Kept {
		ck += r.Kept[i].TPSSliceCV
		cd += r.Drop[i].TPSSliceCV
	}
	ck /= float64(len(r.Kept))
	cd /= float64(len(r.Drop))
	r.Checks = append(r.Checks, lab.Target{
		Name: "drop-pin's per-slice TPS varies at least 2× as much as keep-pin's (mean coefficient of variation over the rows)",
		Pass: cd >= 2*ck, Detail: fmt.Sprintf("drop-pin %.4f, keep-pin %.4f, ratio %.2f", cd, ck, cd/max(ck, 1e-12)),
	})
}

// Passed reports whether every target is met.
func (r *Reproduction) Passed() bool { return r.Checks.Passed() }

// Markdown writes the published table beside the simulated one, and the checks.
func (r *Reproduction) Markdown() string {
	var b strings.Builder
	b.WriteString("# pins: published measurements and the simulation\n\n")
	b.WriteString("Transactions per second. Published: Peter Geoghegan, pgsql-hackers, July 2017 (pgbench, Zipfian keys, ")
	b.WriteString("50% SELECT / 50% UPDATE, unique logged primary key, 10-minute runs; 8217fb14 keeps the pin, 2ed5b87f drops it). ")
	b.WriteString("Simulated: `bufferscope pins` with its defaults (16 cores, 600s at time scale 1000, 5s slices).\n\n")
	b.WriteString("| clients | kept (published) | dropped (published) | dropped/kept | kept (simulated) | dropped (simulated) | dropped/kept | slice CV kept | slice CV dropped | hints lost dropped | VACUUM wait kept (s) | dead fetches dropped | of which hintable |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for i, p := range published {
		k, d := r.Kept[i], r.Drop[i]
		fmt.Fprintf(&b, "| %d | %.0f | %.0f | %+.1f%% | %.0f | %.0f | %+.1f%% | %.4f | %.4f | %d | %.3f | %d | %.1f%% |\n",
			p.clients, p.kept, p.drop, 100*(p.drop/p.kept-1), k.TPS, d.TPS, 100*(d.TPS/k.TPS-1),
			k.TPSSliceCV, d.TPSSliceCV, d.HintsLost, k.VacuumWaitSeconds, d.DeadFetches,
			100*float64(d.HintableFetches)/float64(max(d.DeadFetches, 1)))
	}
	b.WriteString("\nA dead fetch is a scan's heap fetch through an index item whose tuple is dead; only a hintable one, ")
	b.WriteString("dead to everyone (below RecentGlobalXmin) when fetched, may be marked LP_DEAD by either policy. ")
	b.WriteString("The rest are recently dead: an UPDATE queued for a hot row's lock holds its xid, and so every ")
	b.WriteString("snapshot's xmin, back while it waits.\n")
	b.WriteString("\n## Targets (reference/seed-results.md)\n\n")
	r.Checks.WriteMarkdown(&b)
	return b.String()
}

// ReproduceBudget is what make bench allows the reproduction natively (issue #16).
func (experiment) ReproduceBudget() (seconds, peakBytes float64) { return 60, 0 }

// Reproduce prints the published pins table beside the simulated one.
func (experiment) Reproduce(w, progress io.Writer) (bool, error) {
	r, err := Reproduce(progress)
	if err != nil {
		return false, err
	}
	if _, err := io.WriteString(w, r.Markdown()); err != nil {
		return false, err
	}
	return r.Passed(), nil
}
