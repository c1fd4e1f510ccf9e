package sim

import (
	"fmt"
	"math/rand/v2"
)

// Config is everything a simulation starts from. The same Config and the same commands give
// the same run, step for step, natively and in WebAssembly.
type Config struct {
	NBuffers int       // shared_buffers in 8 kB buffers, MinNBuffers to MaxNBuffers
	Version  Version   // PostgreSQL release the models follow; zero is DefaultVersion
	Seed     uint64    // seed of the PCG random source
	Cost     CostModel // zero fields take their defaults
	// Workload is the free-play load; nil means DefaultWorkload(NBuffers).
	Workload *Workload
}

// Sim is a deterministic simulation of the shared buffer pool and the processes that use it,
// advanced by explicit steps on a virtual clock.
type Sim struct {
	Pool *Pool

	cfg      Config
	work     Workload
	pcg      pcg // the random source, math/rand/v2's PCG
	rng      *rand.Rand
	now      Duration
	clients  []client
	wake     wakeTree   // the clients by next wake-up
	manual   []*Backend // backends driven by commands, by id
	walw     bgProc
	bgw      bgProc
	weights  []int // cumulative access weights of the workload's relations
	relIndex []int // catalog index of each workload relation
	allocs   uint64
	lastDrop DropResult
	scenario Scenario      // what a step does when not the free-play workload; nil: the workload
	zipf     []*zipfAlias  // per workload relation, built on first use for the current skew
	zipfBig  zipfRejection // for relations too large for an alias table, at the current skew
	log      commandLog
}

// Scenario is what a step does in place of the free-play workload: a lab's own process,
// such as a replay of WAL that drops relations.
type Scenario interface {
	// Step performs up to n units of the scenario on s and returns how many it performed.
	Step(s *Sim, n int) (int, error)
	// Done reports whether the scenario has ended; an ended scenario performs no units.
	Done() bool
}

// client is one backend of the free-play workload. It keeps its current page pinned until it
// moves to the next, as a backend does while it works on a page.
type client struct {
	backend Backend
	next    Duration // virtual time at which it takes its next step
	held    int      // buffer it pins, or -1
}

// bgProc is a background process that wakes every delay.
type bgProc struct {
	next  Duration
	delay Duration
	on    bool
}

// New builds a simulation from cfg.
func New(cfg Config) (*Sim, error) {
	w := DefaultWorkload(cfg.NBuffers)
	if cfg.Workload != nil {
		w = *cfg.Workload
		w.Relations = append([]RelationSpec(nil), w.Relations...)
	}
	if err := w.Validate(cfg.NBuffers); err != nil {
		return nil, err
	}
	if err := cfg.Version.Validate(); err != nil {
		return nil, err
	}
	pool, err := NewPool(cfg.NBuffers, cfg.Version, cfg.Cost)
	if err != nil {
		return nil, err
	}
	s := &Sim{Pool: pool, cfg: cfg, work: w}
	s.pcg = newPCG(cfg.Seed, cfg.Seed^0x9E3779B97F4A7C15)
	s.rng = rand.New(&s.pcg)
	pool.pcg, pool.osCache = &s.pcg, w.OSCachePercent
	for _, r := range w.Relations {
		if err := s.createRelation(r.Name, r.Blocks, r.Unlogged); err != nil {
			return nil, err
		}
		s.relIndex = append(s.relIndex, len(pool.cat.rels)-1)
	}
	s.setWeights()
	s.setClients(w.Clients)
	s.walw = bgProc{next: w.WALWriterDelay, delay: w.WALWriterDelay, on: true}
	s.bgw = bgProc{next: w.BgWriterDelay, delay: w.BgWriterDelay, on: w.BgWriterPages > 0}
	return s, nil
}

// Config returns the configuration the simulation was built from.
func (s *Sim) Config() Config { return s.cfg }

// Workload returns the workload as commands have left it.
func (s *Sim) Workload() Workload { return s.work }

// Now returns the virtual time of the last step.
func (s *Sim) Now() Duration { return s.now }

// Stats returns the counters so far.
func (s *Sim) Stats() Stats { return s.Pool.Stats }

// Events returns what happened during the last command. The slice is reused by the next one.
func (s *Sim) Events() []Event { return s.Pool.events }

// LastDrop returns what the last drop command did.
func (s *Sim) LastDrop() DropResult { return s.lastDrop }

// Log returns the most recent commands applied, in order, with consecutive steps merged
// into one (LogLimit bounds it), and how many earlier commands it no longer holds.
func (s *Sim) Log() ([]Command, int) { return s.log.list() }

// NewScenario builds a simulation of pool p whose steps run sc instead of the free-play
// workload: no clients and no background processes. cfg says what p was built from.
func NewScenario(p *Pool, cfg Config, sc Scenario) *Sim {
	w := Workload{WALWriterDelay: DefaultWorkload(p.NBuffers).WALWriterDelay, BgWriterDelay: DefaultWorkload(p.NBuffers).BgWriterDelay}
	cfg.NBuffers, cfg.Version, cfg.Cost, cfg.Workload = p.NBuffers, p.Version, p.Cost, &w
	s := &Sim{Pool: p, cfg: cfg, work: w, scenario: sc}
	s.pcg = newPCG(cfg.Seed, cfg.Seed^0x9E3779B97F4A7C15)
	s.rng = rand.New(&s.pcg)
	return s
}

// Scenario returns the scenario the simulation steps, or nil for the free-play workload.
func (s *Sim) Scenario() Scenario { return s.scenario }

// Done reports whether the simulation's scenario has ended; the workload never does.
func (s *Sim) Done() bool { return s.scenario != nil && s.scenario.Done() }

func (s *Sim) createRelation(name string, blocks int, unlogged bool) error {
	if blocks < 1 || blocks > 1<<30 {
		return fmt.Errorf("relation %q: blocks %d is not between 1 and 2^30", name, blocks)
	}
	r := &Relation{
		Name:      name,
		Locator:   RelFileLocator{SpcOid: DefaultTablespaceOid, DbOid: DefaultDatabaseOid, RelNumber: s.Pool.cat.nextRelNumber()},
		Permanent: !unlogged,
	}
	r.NBlocks[MainForkNum] = BlockNumber(blocks)
	_, err := s.Pool.AddRelation(r)
	return err
}

func (s *Sim) setWeights() {
	s.weights = s.weights[:0]
	total := 0
	for _, r := range s.work.Relations {
		total += r.Weight
		s.weights = append(s.weights, total)
	}
}

// setClients grows or shrinks the client list; a removed client releases its pin.
func (s *Sim) setClients(n int) {
	for len(s.clients) > n {
		c := &s.clients[len(s.clients)-1]
		if c.held >= 0 {
			s.Pool.ReleaseBuffer(&c.backend, c.held)
		}
		s.clients = s.clients[:len(s.clients)-1]
	}
	for len(s.clients) < n {
		s.clients = append(s.clients, client{backend: Backend{ID: len(s.clients)}, next: s.now, held: -1})
	}
	s.wake.reset(s.clients)
	s.work.Clients = n
}

// Apply applies one command, appends it to the log and leaves its events in Events.
func (s *Sim) Apply(c Command) error {
	s.Pool.events = s.Pool.events[:0]
	err := s.settle(c.apply(s))
	if err == nil {
		s.log.add(c)
	}
	return err
}

// Step advances the simulation by n steps; it is Apply(StepCmd{N: n}), without making the
// command a value on the heap.
func (s *Sim) Step(n int) error {
	s.Pool.events = s.Pool.events[:0]
	err := s.settle(StepCmd{N: n}.apply(s))
	if err == nil {
		s.log.addSteps(n)
	}
	return err
}

// settle ends a command that returned err: work it did itself, outside any process, takes
// the clock forward.
func (s *Sim) settle(err error) error {
	s.now += s.Pool.takeElapsed()
	return err
}

// run takes n steps. Each runs the process whose next wake-up is earliest: the WAL writer,
// then the background writer, then clients in order when times tie.
func (s *Sim) run(n int) error {
	for range n {
		// The WAL writer always runs; the background writer and then a client take the
		// step only when they wake strictly earlier, so ties go to the WAL writer first.
		best, bestAt := -3, s.walw.next
		if s.bgw.on && s.bgw.next < bestAt {
			best, bestAt = -2, s.bgw.next
		}
		if w := s.wake.first(); w.client >= 0 && w.at < bestAt {
			best, bestAt = int(w.client), w.at
		}
		if bestAt > MaxTime {
			return fmt.Errorf("the simulation reached the end of its virtual time, %v: reset to start again", MaxTime)
		}
		s.Pool.Stats.Steps++
		s.now = max(s.now, bestAt)
		switch best {
		case -3:
			s.Pool.XLogBackgroundFlush()
			s.walw.next = s.now + s.walw.delay + s.Pool.takeElapsed()
		case -2:
			s.Pool.bgBufferSync(s.allocs, s.work.BgWriterPages)
			s.allocs = 0
			s.bgw.next = s.now + s.bgw.delay + s.Pool.takeElapsed()
		default:
			c := &s.clients[best]
			if err := s.clientStep(c); err != nil {
				return err
			}
			c.next = s.now + s.Pool.takeElapsed()
			s.wake.set(best, c.next)
		}
	}
	return nil
}

// clientStep moves a client to its next page: release the page it holds, pick a relation by
// weight and a block by the distribution, read it and maybe change it.
func (s *Sim) clientStep(c *client) error {
	p := s.Pool
	if c.held >= 0 {
		// ReleaseBuffer, with its common case written out: the client's one pin, found in
		// its entry used last.
		if n, ok := c.backend.tryDropPin(c.held); ok {
			p.unpinBuffer(&c.backend, c.held, n)
		} else if err := p.ReleaseBuffer(&c.backend, c.held); err != nil {
			return err
		}
		c.held = -1
	}
	if len(s.weights) == 0 || s.weights[len(s.weights)-1] == 0 {
		return nil
	}
	// One 64-bit draw picks both the relation and, for uniform keys, the block.
	r := s.pcg.Uint64()
	pick := int(scale32(uint32(r), uint32(s.weights[len(s.weights)-1])))
	ri := 0
	for s.weights[ri] <= pick {
		ri++
	}
	ci := s.relIndex[ri]
	rel := p.cat.rels[ci]
	n := rel.NBlocks[MainForkNum]
	var blk BlockNumber
	if s.work.Distribution == Zipfian {
		blk = BlockNumber(s.drawZipfian(ri, n) - 1)
	} else {
		blk = BlockNumber(scale32(uint32(r>>32), uint32(n)))
	}
	misses := p.Stats.Misses
	id, err := p.readBuffer(&c.backend, BufferTag{Locator: rel.Locator, Fork: MainForkNum, Block: blk}, ci)
	if err != nil {
		return err
	}
	s.allocs += p.Stats.Misses - misses
	c.held = id
	p.charge(p.Cost.PageWork)
	if percentDraw(&s.pcg) < s.work.UpdatePercent {
		return p.LogPageChange(&c.backend, id, updateRecordBytes)
	}
	return nil
}

// backend returns the command-driven backend with id, creating it on first use.
func (s *Sim) backend(id int) (*Backend, error) {
	if id < 0 || id >= maxManualBackends {
		return nil, fmt.Errorf("backend %d is not between 0 and %d", id, maxManualBackends-1)
	}
	for len(s.manual) <= id {
		s.manual = append(s.manual, &Backend{ID: ManualBackendBase + len(s.manual)})
	}
	return s.manual[id], nil
}

// MaxTime is the end of a simulation's virtual time, about 11.6 days: far beyond any run a
// reader watches, and far enough inside Duration's range that no wake-up overflows.
const MaxTime = 1_000_000 * Second

// Command-driven backends have ids from ManualBackendBase, apart from the workload's clients.
const (
	ManualBackendBase = 10000
	maxManualBackends = 64
)

// drawZipfian draws a Zipfian block number in [1, n] for workload relation ri, through the
// relation's alias table when it has one.
func (s *Sim) drawZipfian(ri int, n BlockNumber) int64 {
	if n > zipfAliasMax {
		if s.zipfBig.s != s.work.ZipfS {
			s.zipfBig = newZipfRejection(s.work.ZipfS)
		}
		return s.zipfBig.draw(s.rng, int64(n))
	}
	if s.zipf == nil {
		s.zipf = make([]*zipfAlias, len(s.relIndex))
	}
	if s.zipf[ri] == nil {
		s.zipf[ri] = newZipfAlias(int(n), s.work.ZipfS)
	}
	return s.zipf[ri].draw(s.pcg.Uint64())
}

// scale32 maps 32 random bits onto [0, n) by multiply-shift (Lemire): one multiplication
// instead of a division, with a bias below n/2³², far under anything a run could show.
func scale32(bits, n uint32) uint32 { return uint32(uint64(bits) * uint64(n) >> 32) }

// percentDraw returns a number in [0, 100) from one draw. It calls the PCG directly: the
// interface call through rand.Rand costs more than the draw in WebAssembly.
func percentDraw(r *pcg) int { return int(scale32(uint32(r.Uint64()>>32), 100)) }
